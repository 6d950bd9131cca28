/**
 * ptolog as a library: the pipeline's stages as typed functions, in pipeline order.
 * text → parseModule → extractFacts → loadProgram / evaluate → readEdits / readFindings →
 * rewrite → text, plus the canonical printer and the pass pipeline built from them.
 */

export { applyConfig, applyOverrides, ignoredCodes } from './config/apply.js';
export {
  CONFIG_KEYS,
  type ConfigReader,
  DEFAULT_EXCLUDE,
  loadConfig,
  loadConfigFile,
  type PtologConfig,
  parseConfig,
  type SeverityOverride,
} from './config/config.js';
export {
  EvalResult,
  evaluate,
  evaluateNaive,
  FactDatabase,
  formatProof,
  formatWhyNot,
  loadProgram,
  type Proof,
  RuleProgram,
  type Value,
  type WhyNot,
} from './datalog/index.js';
export { type Binding, type Entity, extractFacts, NodeTable } from './facts/extract.js';
export { type FactSink, type FactValue, MemorySink } from './facts/sink.js';
export { parseDefines, parseModule, readModule, unknownDefines } from './frontend/index.js';
export { structurallyEqual } from './ir/equal.js';
export type * from './ir/nodes.js';
export { printExpr, printModule, printProgram, printStmt } from './ir/print.js';
export { type Analysis, analyze, loadRules } from './passes/analyze.js';
export { knownCodes } from './passes/codes.js';
export { explainLine } from './passes/explain.js';
export { type ExtraRuleFile, extrasFor, readExtraRules } from './passes/extra-rules.js';
export { readFindings } from './passes/findings.js';
export { fanoutDot } from './passes/graph.js';
export { type AuditOutcome, applyPasses, auditText, type PassOutcome, type RunOptions } from './passes/pipeline.js';
export { readEdits } from './passes/read-edits.js';
export { PASSES, type PassSpec, passByName, rulesDir } from './passes/registry.js';
export { type LoadedRules, RuleSession } from './passes/rule-session.js';
export type { FixEdit } from './report/diagnostic.js';
export { type Diagnostic, DiagnosticError, type Location, type Severity } from './report/diagnostic.js';
export { renderJson } from './report/json.js';
export { renderSarif } from './report/sarif.js';
export { SourceText } from './report/source.js';
export { closestName } from './report/suggest.js';
export { renderDiagnostic, renderDiagnostics } from './report/text.js';
export { fromWire, toWire, type WireBundle, type WireDiagnostic, type WireLocation } from './report/wire.js';
export type { EditSet } from './rewrite/edits.js';
export { applySourceEdits, type PatchResult, type SourceEdit } from './rewrite/patch.js';
export { type RewriteResult, rewrite } from './rewrite/rewrite.js';
export { type ApplyOutcome, type MemoryPolicy, Runner, type RunnerConfig, type RunScope } from './runner/runner.js';
export {
  applySuppressions,
  parseSuppressions,
  type Suppression,
  type SuppressOptions,
  type SuppressResult,
} from './suppress/suppress.js';
