/** The runner: one place that runs the contracts over a text for every front end (README.md). */
export { unifiedPatch } from './diff.js';
export { editsAt } from './edits-at.js';
export { auditUnitsSteps, type PassFinding, type ProgramCache, type ProgramsAudit, type UnitStep } from './incremental.js';
export { fileModuleReader } from './module-reader.js';
export { type ApplyOutcome, type MemoryPolicy, Runner, type RunnerConfig, type RunScope } from './runner.js';
