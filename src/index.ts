/**
 * ptolog as a library: the pipeline's stages as typed functions, in pipeline order.
 * text → parseModule → extractFacts → loadProgram / evaluate → readEdits / readFindings →
 * rewrite → text, plus the canonical printer and the pass pipeline built from them.
 */
export type * from './ir/nodes.js';
export { parseModule, readModule, parseDefines } from './frontend/index.js';
export { printModule, printProgram, printStmt, printExpr } from './ir/print.js';
export { structurallyEqual } from './ir/equal.js';
export { extractFacts, NodeTable, type Binding, type Entity } from './facts/extract.js';
export { MemorySink, type FactSink, type FactValue } from './facts/sink.js';
export {
  loadProgram, evaluate, evaluateNaive, RuleProgram, FactDatabase, EvalResult, formatProof, formatWhyNot,
  type Proof, type WhyNot, type Value,
} from './datalog/index.js';
export { applySourceEdits, type SourceEdit, type PatchResult } from './rewrite/patch.js';
export { rewrite, type RewriteResult } from './rewrite/rewrite.js';
export type { EditSet } from './rewrite/edits.js';
export { PASSES, passByName, rulesDir, type PassSpec } from './passes/registry.js';
export { analyze, loadRules, type Analysis } from './passes/analyze.js';
export { RuleSession, type LoadedRules } from './passes/rule-session.js';
export { readEdits } from './passes/read-edits.js';
export { readFindings } from './passes/findings.js';
export { applyPasses, auditText, type RunOptions, type PassOutcome } from './passes/pipeline.js';
export { explainLine } from './passes/explain.js';
export { fanoutDot } from './passes/graph.js';
export { DiagnosticError, type Diagnostic, type Severity, type Location } from './report/diagnostic.js';
export { SourceText } from './report/source.js';
export { renderDiagnostic, renderDiagnostics } from './report/text.js';
export { renderJson } from './report/json.js';
export { renderSarif } from './report/sarif.js';
export { readExtraRules, extrasFor, type ExtraRuleFile } from './passes/extra-rules.js';
export { knownCodes } from './passes/codes.js';
export { unknownDefines } from './frontend/index.js';
export {
  loadConfig, loadConfigFile, parseConfig, CONFIG_KEYS, DEFAULT_EXCLUDE,
  type PtologConfig, type ConfigReader, type SeverityOverride,
} from './config/config.js';
export { applyConfig, applyOverrides, ignoredCodes } from './config/apply.js';
export {
  applySuppressions, parseSuppressions, type Suppression, type SuppressOptions, type SuppressResult,
} from './suppress/suppress.js';
export { toWire, fromWire, type WireBundle, type WireDiagnostic, type WireLocation } from './report/wire.js';
export { closestName } from './report/suggest.js';
export type { FixEdit } from './report/diagnostic.js';
