/** `ptolog test`: annotated rule tests (Semgrep / CodeQL style) for rule authors. */
export { type Annotations, checkAnnotatedCodes, hasAnnotations, readAnnotations } from './annotations.js';
export { type RuleTestInput, type RuleTestResult, runRuleTest } from './run.js';
