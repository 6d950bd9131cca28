// Public API of the rule engine: load and check rule files, build fact databases, evaluate,
// read results and ask for provenance.
import { resolve } from 'node:path';
import type { Diagnostic } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { checkProgram } from './check/check.js';
import type { RuleProgram } from './check/program.js';
import { type CompileRequest, type LoadMemo, loadProgramCached as loadCached, type RuleCache } from './plan/rule-cache.js';
import { type Literal, operands, type Term } from './syntax/ast.js';
import { type FileParser, type FileReader, type Libraries, loadFiles, type RuleSource } from './syntax/load.js';
import { parseFile } from './syntax/parser.js';

export { type RelationInfo, RuleProgram, summaryOf } from './check/program.js';
export {
  type EvaluateOptions,
  EvaluationStopped,
  EvaluationTimeout,
  evaluate,
  neededRelations,
  TupleLimitExceeded,
} from './exec/eval.js';
export { compiledPlanCodes, PREBUILT_PLANS, PrebuiltPlans, prebuiltPlansScript, providePrebuiltPlans } from './exec/prebuilt-plans.js';
export { EvalResult } from './exec/result.js';
export { COMPILED_FORMAT } from './plan/compiled.js';
export { projectInputs } from './plan/projection.js';
export { type CompiledStore, type CompileRequest, type LoadMemo, newLoadMemo, type RuleCache } from './plan/rule-cache.js';
export { Arena } from './storage/arena.js';
export { FactDatabase } from './storage/database.js';
export type { Projection } from './storage/schema.js';
export type { Kind, Value } from './syntax/ast.js';
export type { FileParser, FileReader, Libraries, NotRegular, RuleSource, TooLarge } from './syntax/load.js';
export { MAX_RULE_FILE_BYTES } from './syntax/load.js';

import { neededRelations } from './exec/eval.js';

export { evaluateNaive } from './exec/naive.js';
export { formatOutputs, readFactsDir, readFactsFile, writeOutputs } from './io/facts-io.js';
export { parseTupleText } from './io/tuple-text.js';
export { formatProof, formatTuple, formatValue, formatWhyNot } from './provenance/format.js';
export type { Premise, Proof, RuleRef, WhyNot } from './provenance/provenance.js';

/**
 * Parses, resolves `#include` (once per program by resolved path, see loadFiles for
 * `includeDirs` and `libraries`) and checks a set of rule files as one program; files may use relations
 * declared in other files of the set. Throws DiagnosticError on errors; returns the program and
 * the warnings. An included file is a library: its relations that this program leaves unused,
 * and its outputs this program does not derive (rules/edits.dl's edit vocabulary), are not
 * warned about (only those of the files given).
 */
export function loadProgram(
  sources: ReadonlyArray<RuleSource>,
  read?: FileReader,
  includeDirs: readonly string[] = [],
  libraries: Libraries = {},
  parse?: FileParser,
): { program: RuleProgram; warnings: Diagnostic[] } {
  const r = checkProgram(loadFiles(sources, read, includeDirs, libraries, parse));
  const given = new Set(sources.map((s) => resolve(typeof s === 'string' ? s : s.path)));
  return { program: r.program, warnings: ownWarnings(r.warnings, (p) => given.has(resolve(p))) };
}

const LIBRARY_WARNINGS = new Set(['unused-relation', 'underived-output']);

/** The warnings of a load but the library ones (see loadProgram) about files that `given` says were not given. */
function ownWarnings(warnings: readonly Diagnostic[], given: (path: string) => boolean): Diagnostic[] {
  return warnings.filter((w) => !LIBRARY_WARNINGS.has(w.code) || !w.location || given(w.location.source.path));
}

/**
 * loadProgram of rule files on disk through a compiled-rules cache (rule-cache.ts): parsed and
 * checked only when no current entry is stored. Paths of `req` are absolute; the program's
 * source paths are `display(path)` (relative to a working directory, say).
 */
export function loadProgramCached(
  req: CompileRequest,
  cache: RuleCache,
  display: (absPath: string) => string = (p) => p,
  parse?: FileParser,
  memo?: LoadMemo,
): { program: RuleProgram; warnings: Diagnostic[] } {
  const r = loadCached(req, cache, display, parse, memo);
  const given = new Set(req.files.map(display));
  return { program: r.program, warnings: ownWarnings(r.warnings, (p) => given.has(p)) };
}

/**
 * Names of the relations evaluation reads: those some rule deriving a needed relation (see
 * `neededRelations`) reads, in a body, negation or aggregate, plus the needed ones.
 */
export function relationsRead(program: RuleProgram): Set<string> {
  const needed = neededRelations(program);
  const edges = program.edges;
  const out = new Set<string>();
  for (const e of edges) {
    if (!needed.has(e.from)) continue;
    const r = program.relations[e.to];
    if (r) out.add(r.name);
  }
  for (const id of needed) {
    const r = program.relations[id];
    if (r) out.add(r.name);
  }
  return out;
}

/**
 * The relations a rule file uses (in facts, rule heads, bodies and aggregates) without
 * declaring them itself: what it needs from the program it is loaded into. Throws
 * DiagnosticError on a syntax error.
 */
export function relationsUsedUndeclared(path: string, text: string): Set<string> {
  const file = parseFile(new SourceText(path, text));
  const used = new Set<string>();
  const term = (t: Term): void => {
    if (t.kind === 'agg') {
      if (t.target) term(t.target);
      for (const l of t.body) literal(l);
    } else for (const x of operands(t)) term(x);
  };
  const literal = (l: Literal): void => {
    if (l.kind !== 'cmp') {
      used.add(l.atom.rel);
      for (const a of l.atom.args) term(a);
    } else {
      term(l.left);
      term(l.right);
    }
  };
  for (const c of file.clauses) {
    used.add(c.head.rel);
    for (const a of c.head.args) term(a);
    for (const l of c.body) literal(l);
  }
  for (const d of file.decls) used.delete(d.name);
  return used;
}
