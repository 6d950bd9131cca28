import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  type Arena,
  type EvalResult,
  evaluate,
  loadProgram,
  loadProgramCached,
  projectInputs,
  type RuleCache,
  type RuleProgram,
  summaryOf,
} from '../datalog/index.js';
import { extractFacts, extractFactsCounted, type NodeTable } from '../facts/extract.js';
import type { FactSink } from '../facts/sink.js';
import { StreamAbandoned } from '../frontend/index.js';
import type { Module } from '../ir/nodes.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { loadCatalog } from './catalog.js';
import { databaseSink } from './database-sink.js';
import { checkFindingCodes, checkFindingSeverities } from './findings.js';
import { badOpEffects } from './op-effects.js';
import { rulesDir } from './registry.js';
import { type LoadedRules, RuleSession } from './rule-session.js';

/** A module analysed by a rule program: the id table of its facts and the evaluation result. */
export interface Analysis {
  module: Module;
  table: NodeTable;
  program: RuleProgram;
  result: EvalResult;
  /** Warnings from checking the rule files. */
  ruleWarnings: Diagnostic[];
}

import type { AuditStage } from './audit-stage.js';

export { AUDIT_STAGES, type AuditStage } from './audit-stage.js';

/** How the rules of a pass are found and evaluated. */
export interface AnalyzeOptions {
  /** The audit stage (default `pipeline`: no `audit_stage` fact). */
  stage?: AuditStage;
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
  /** Where loaded rule programs are kept for reuse (default: a fresh session for this call alone). */
  session?: RuleSession;
  /**
   * Only these relations and the outputs are read from the result (no explain, no query): the
   * others are freed during evaluation (EvaluateOptions.keep). Default: every relation is kept.
   */
  keep?: ReadonlySet<string>;
  /** Where the fact database and the evaluation take their large arrays from (default: the database's own). */
  arena?: Arena;
  /**
   * analyzeReleased calls it where a module's tree has become garbage: `extracting` while its
   * facts are extracted (each eighth of a large module's statements), `extracted` once the whole
   * tree is unreachable, right before evaluation (or, in the pipeline, before the result is read),
   * what follows allocating mostly outside the JavaScript heap for long; the pipeline also calls it
   * at `evaluated`, once an evaluation's arrays are given back (Arena.trim) and before the result is
   * copied out of them, and at `released` once the result is out and the arena's buffers are all
   * dropped. The CLI gives a full garbage collection, so that the tree's (or the
   * evaluation's) memory is given back before the next is taken (JavaScript offers the library no
   * way to ask for one).
   */
  collect?: (moment: CollectMoment) => void;
}

/** Where AnalyzeOptions.collect is called: see there. */
export type CollectMoment = 'extracting' | 'extracted' | 'evaluated' | 'released';

/**
 * Loads (once per `session`) the rule program made of a pass's entry file (under `root`) plus
 * extra files; an extra file's `#include` not found beside it is looked up in `includeDirs`,
 * then in `root`. Throws DiagnosticError on rule errors.
 */
export function loadRules(
  entry: string,
  extra: readonly string[] = [],
  root: string = rulesDir(),
  includeDirs: readonly string[] = [],
  session: RuleSession = new RuleSession(),
): LoadedRules {
  // Rule paths as the user reads them in proofs and diagnostics: relative to the session's directory.
  const files = [isAbsolute(entry) ? entry : join(root, entry), ...extra].map((f) => (isAbsolute(f) ? session.shown(f, f) : f));
  const dirs = [...includeDirs, root].map((d) => (isAbsolute(d) ? session.shown(d, '.') : d));
  const key = [...files, '\u0001', ...dirs].join('\0');
  return session.program(key, () => {
    // `#include <ptolog/...>` names the rules in use (the shipped ones, or the --rules-root copy).
    const loaded = session.cache
      ? loadCompiled(entry, extra, root, includeDirs, session, session.cache)
      : loadProgram(files, undefined, dirs, { ptolog: dirs[dirs.length - 1]! }, (s) => session.parse(s));
    const finding = loaded.program.relation('finding')?.id;
    const sources = loaded.program.clauses.filter((pc) => pc.head === finding).map((pc) => summaryOf(pc, loaded.program).source.path);
    const catalogFiles = [...extra, ...sources];
    // loadCatalog reads the catalogs of the root and of each folder in it whatever it is given:
    // only other folders make another catalog (the shipped contracts share one, parsed once).
    const absRoot = resolve(root);
    const own = (d: string): boolean => resolve(d) === absRoot || dirname(resolve(d)) === absRoot;
    const others = [...new Set(catalogFiles.map((f) => dirname(f)))].filter((d) => !own(d));
    const catalog = session.catalog([root, ...others].join('\0'), () => loadCatalog(root, catalogFiles));
    const bad = [...checkFindingSeverities(loaded.program), ...checkFindingCodes(loaded.program, catalog)];
    if (bad.length > 0) throw new DiagnosticError(bad);
    return loaded;
  });
}

/**
 * The program of loadRules through the session's compiled-rules cache: loaded with absolute
 * paths (the key of the entry), shown as loadProgram would show the session's paths.
 */
function loadCompiled(
  entry: string,
  extra: readonly string[],
  root: string,
  includeDirs: readonly string[],
  session: RuleSession,
  cache: RuleCache,
): { program: RuleProgram; warnings: Diagnostic[] } {
  const absRoot = resolve(root);
  const given = [isAbsolute(entry) ? entry : join(root, entry), ...extra];
  const files = given.map((f) => resolve(f));
  // A file given is shown as the caller spelled it (shown relative to the session's directory when absolute), any other relative to the session's directory.
  const spelled = new Map(given.map((f, i) => [files[i]!, isAbsolute(f) ? session.shown(f, f) : f]));
  const display = (p: string): string => spelled.get(p) ?? (session.cwd === undefined ? p : session.shown(p, p));
  const dirs = [...includeDirs.map((d) => resolve(d)), absRoot];
  return loadProgramCached(
    { files, includeDirs: dirs, libraries: { ptolog: absRoot }, root: absRoot },
    cache,
    display,
    (s) => session.parse(s),
    session.loads,
  );
}

/**
 * Extracts the module's facts and evaluates the rule program on them. Throws DiagnosticError
 * when the rules declare an op effect the catalog cannot use (located at its declaration).
 */
export function analyze(module: Module, entry: string, extra: readonly string[] = [], opts: AnalyzeOptions = {}): Analysis {
  let table: NodeTable | undefined;
  const r = evaluateFacts(entry, extra, opts, (sink) => {
    table = extractFacts(module, sink);
  });
  return { module, table: table!, ...r };
}

/** An evaluation whose module was freed before it ran (see analyzeReleased). */
export interface ReleasedAnalysis {
  program: RuleProgram;
  result: EvalResult;
  ruleWarnings: Diagnostic[];
  /** How many node ids the facts use: extractFacts on the module parsed again numbers them alike. */
  ids: number;
  /** Whether the module was read by a streaming parse (else whole, after one was abandoned): parse it again the same way. */
  streamed: boolean;
}

/**
 * As analyze, on the module `parse` returns, with nothing of its tree kept: the facts are
 * extracted (ids counted, no node remembered) and the module is unreachable before evaluation
 * starts, so a large module's tree and the evaluation are never in memory together. `parse(true)`
 * is asked first for a streaming parse (ParseOptions.streaming: the tree is never whole); when it
 * is abandoned (StreamAbandoned, at parse or extraction), the facts so far are dropped (the arena
 * reset) and `parse(false)` read whole. A caller that needs nodes afterwards (to locate findings,
 * to rewrite) parses the text again the same way (`streamed`) and numbers it with extractFacts
 * (`ids` says how many ids that must give).
 */
export function analyzeReleased(
  parse: (streaming: boolean) => Module,
  entry: string,
  extra: readonly string[] = [],
  opts: AnalyzeOptions = {},
): ReleasedAnalysis {
  const once = (streaming: boolean): ReleasedAnalysis => {
    let ids = 0;
    const r = evaluateFacts(entry, extra, opts, (sink) => {
      // With `collect`, the tree is freed on the way (ExtractOptions.consume), the rest of it here.
      const collect = opts.collect;
      ids = extractFactsCounted(parse(streaming), sink, collect ? { collect: () => collect('extracting') } : undefined);
      collect?.('extracted');
    });
    return { ...r, ids, streamed: streaming };
  };
  try {
    return once(true);
  } catch (e) {
    if (!(e instanceof StreamAbandoned)) throw e;
    opts.arena?.reset(); // (nothing of the abandoned database is read)
    return once(false);
  }
}

/** Loads the rules, fills their facts with `extract`, evaluates; the rest of analyze. */
function evaluateFacts(
  entry: string,
  extra: readonly string[],
  opts: AnalyzeOptions,
  extract: (sink: FactSink) => void,
): Omit<Analysis, 'module' | 'table'> {
  const { program, warnings } = loadRules(entry, extra, opts.rulesRoot, opts.includeDirs, opts.session);
  // Only outputs and kept relations are read from the result: input columns no rule reads are not stored.
  const run = opts.keep ? projectInputs(program, opts.keep) : program;
  const db = run.newDatabase(opts.arena);
  const sink = databaseSink(run, db);
  extract(sink);
  if (opts.stage === 'as-written') sink.add('audit_stage', ['as-written']);
  const result = evaluate(run, db, {
    ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
    ...(opts.timeoutSeconds !== undefined ? { timeoutSeconds: opts.timeoutSeconds } : {}),
    ...(opts.maxTuples !== undefined ? { maxTuples: opts.maxTuples } : {}),
    ...(opts.keep !== undefined ? { keep: opts.keep } : {}),
  });
  const bad = badOpEffects(result);
  if (bad.length > 0) throw new DiagnosticError(bad);
  // The program evaluated (projected when `keep` is given), so that its relations describe `result`'s.
  return { program: run, result, ruleWarnings: warnings };
}
