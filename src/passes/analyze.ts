import { join, relative, isAbsolute } from 'node:path';
import type { Module } from '../ir/nodes.js';
import { extractFacts, type NodeTable } from '../facts/extract.js';
import { databaseSink } from './database-sink.js';
import { loadProgram, evaluate, type EvalResult, type RuleProgram } from '../datalog/index.js';
import { DiagnosticError, type Diagnostic } from '../report/diagnostic.js';
import { checkFindingCodes, checkFindingSeverities } from './findings.js';
import { loadCatalog } from './catalog.js';
import { rulesDir } from './registry.js';

/** A module analysed by a rule program: the id table of its facts and the evaluation result. */
export interface Analysis {
  module: Module;
  table: NodeTable;
  program: RuleProgram;
  result: EvalResult;
  /** Warnings from checking the rule files. */
  ruleWarnings: Diagnostic[];
}

const programCache = new Map<string, { program: RuleProgram; warnings: Diagnostic[] }>();

/** How the rules of a pass are found and evaluated. */
export interface AnalyzeOptions {
  /** The directory used in place of the shipped `rules/` (`--rules-root`); default the shipped one. */
  rulesRoot?: string;
  /** Directories searched for an extra rule file's `#include` not found beside it (then the rules root). */
  includeDirs?: readonly string[];
  /** Evaluation stops with an EvaluationTimeout past this `performance.now()` value. */
  deadline?: number;
  /** Seconds each evaluation may take (counted from its start when no deadline is given). */
  timeoutSeconds?: number;
  /** A relation may hold at most this many tuples (TupleLimitExceeded past it). */
  maxTuples?: number;
}

/**
 * Loads (once per process) the rule program made of a pass's entry file (under `root`) plus
 * extra files; an extra file's `#include` not found beside it is looked up in `includeDirs`,
 * then in `root`.
 */
export function loadRules(
  entry: string,
  extra: readonly string[] = [],
  root: string = rulesDir(),
  includeDirs: readonly string[] = [],
): { program: RuleProgram; warnings: Diagnostic[] } {
  // Rule paths as the user reads them in proofs and diagnostics: relative to the working directory.
  const files = [join(root, entry), ...extra].map((f) => (isAbsolute(f) ? relative(process.cwd(), f) || f : f));
  const dirs = [...includeDirs, root].map((d) => (isAbsolute(d) ? relative(process.cwd(), d) || '.' : d));
  const key = [...files, '\u0001', ...dirs].join('\0');
  const hit = programCache.get(key);
  if (hit) return hit;
  // `#include <ptolog/...>` names the rules in use (the shipped ones, or the --rules-root copy).
  const loaded = loadProgram(files, undefined, dirs, { ptolog: dirs[dirs.length - 1]! });
  const sources = loaded.program.clauses.filter((pc) => pc.clause.head.rel === 'finding').map((pc) => pc.clause.head.loc.source.path);
  const bad = [...checkFindingSeverities(loaded.program), ...checkFindingCodes(loaded.program, loadCatalog(root, [...extra, ...sources]))];
  if (bad.length > 0) throw new DiagnosticError(bad);
  programCache.set(key, loaded);
  return loaded;
}

/** Drops every loaded rule program, so the next loadRules re-reads the files (a rule file changed on disk). */
export function forgetLoadedRules(): void {
  programCache.clear();
}

/** Extracts the module's facts and evaluates the rule program on them. */
export function analyze(module: Module, entry: string, extra: readonly string[] = [], opts: AnalyzeOptions = {}): Analysis {
  const { program, warnings } = loadRules(entry, extra, opts.rulesRoot, opts.includeDirs);
  const db = program.newDatabase();
  const sink = databaseSink(program, db);
  const table = extractFacts(module, sink);
  const result = evaluate(program, db, {
    ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
    ...(opts.timeoutSeconds !== undefined ? { timeoutSeconds: opts.timeoutSeconds } : {}),
    ...(opts.maxTuples !== undefined ? { maxTuples: opts.maxTuples } : {}),
  });
  return { module, table, program, result, ruleWarnings: warnings };
}
