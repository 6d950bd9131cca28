/** `ptolog test`: annotated rule tests (Semgrep / CodeQL style) for rule authors. */
export { readAnnotations, hasAnnotations, checkAnnotatedCodes, type Annotations } from './annotations.js';
export { runRuleTest, type RuleTestInput, type RuleTestResult } from './run.js';
