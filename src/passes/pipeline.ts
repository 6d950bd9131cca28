import { Arena, type EvalResult } from '../datalog/index.js';
import { extractFacts, type Keep, NO_FACTS, type NodeTable } from '../facts/extract.js';
import { type LazySizes, type ModuleReader, mayHoldKernel, parseModuleIsolated } from '../frontend/index.js';
import type { ConstValue, FunctionDef, Module, ModulePart, Program } from '../ir/nodes.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { type SourceText, SourceText as SourceTextOf } from '../report/source.js';
import { type EditTable, editCount } from '../rewrite/edits.js';
import { patchSource, type SourceEditList } from '../rewrite/patch.js';
import { textEditsOf } from '../rewrite/rewrite.js';
import { type AnalyzeOptions, type AuditStage, analyzeReleased, type CollectMoment, type ReleasedAnalysis } from './analyze.js';
import { type ExtraRuleFile, extrasFor } from './extra-rules.js';
import { readFindings, sortDiagnostics } from './findings.js';
import { withInsertionFixes } from './insertion-fixes.js';
import { composeLineMaps, type LineMap, lineMapOf, remapDiagnostic } from './line-map.js';
import { editsOutsideFailed } from './local-errors.js';
import { DEPS, type IdSet, NODE, namedIds, namesNodes, SPAN } from './named-ids.js';
import { localize, splitEdits } from './parts.js';
import { readEdits } from './read-edits.js';
import { PASSES, type PassSpec } from './registry.js';
import { RuleSession } from './rule-session.js';

/**
 * Bytes of arena reserved per character of a file's text before it is parsed: about what the
 * facts and evaluation of the shipped passes need at their peak (measured: 20 on a
 * million-statement comm kernel), so that a run reserves once, while the JS heap is small.
 */
const ARENA_BYTES_PER_CHAR = 32;

/**
 * Texts below this many characters reserve nothing up front: their arrays are mostly below the
 * arena's block size (plain typed arrays), and a reservation is a chunk of at least 16 MB — an
 * ArrayBuffer per file, whose external memory starts a full collection every few files of a
 * many-file audit.
 */
const RESERVE_FROM_CHARS = 256 * 1024;

/** The arena of one run on `text`, reserved before the text is parsed when it is large (see arena.ts). */
function runArena(text: string, opts: RunOptions): Arena {
  const chars = opts.analysedChars ?? text.length;
  return new Arena(chars < RESERVE_FROM_CHARS ? 0 : ARENA_BYTES_PER_CHAR * chars);
}

/**
 * After the last evaluation of a run: its result moved out of the arena (a few relations), whose
 * buffers are given back, so that reading the result and rewriting do not sit on top of the
 * pages evaluation wrote at its peak. The buffers no array uses any more are given back first
 * (and collected, `collect`): the copies are then not made on top of the peak. The symbols no
 * kept row holds are forgotten then (a large kernel's names are a large share of its heap).
 */
function giveBack(arena: Arena, result: EvalResult, collect: RunOptions['collect']): void {
  arena.trim();
  collect?.('evaluated');
  result.detach();
  result.retainSymbols();
  arena.reset();
  arena.trim();
  // The pages the evaluation wrote are given back now, not when the next parse's allocations
  // happen to start a collection (else they stay resident through the rest of the run).
  collect?.('released');
}

/** What a run reads besides the text: constants, extra rule files and where their includes are. */
export interface RunOptions {
  defines?: ReadonlyMap<string, ConstValue>;
  extras?: readonly ExtraRuleFile[];
  /** Directories searched for an extra rule file's `#include` not found beside it. */
  includeDirs?: readonly string[];
  /** The directory used in place of the shipped `rules/` (`--rules-root`). */
  rulesRoot?: string;
  /** Evaluation stops with an EvaluationTimeout past this `performance.now()` value. */
  deadline?: number;
  /** Seconds each evaluation may take (counted from its start when no deadline is given). */
  timeoutSeconds?: number;
  /** A relation may hold at most this many tuples (TupleLimitExceeded past it). */
  maxTuples?: number;
  /** The stage `audit` judges the file at (default `pipeline`); `apply` ignores it. */
  stage?: AuditStage;
  /** Where loaded rule programs are kept for reuse across calls (default: one session per call). */
  session?: RuleSession;
  /** A full garbage collection, run when a module's tree has become unreachable (AnalyzeOptions.collect). */
  collect?: (moment: CollectMoment) => void;
  /**
   * Which blocks a streaming parse reads as extraction reaches them (ParseOptions.streaming; default:
   * blocks of 4,096 statements or more, 1,024 at a time). Tests set them small.
   */
  lazyBlocks?: LazySizes;
  /** Reads the project's other modules for the helpers a file imports (ParseOptions.modules); absent: imports are not followed. */
  modules?: ModuleReader;
  /**
   * Only the programs it accepts (by their index in the module) are analysed (the language server
   * re-analyses the programs an edit touched, with the `@pl.inline` helpers they call); default every program.
   */
  programs?: (p: Program, index: number) => boolean;
  /**
   * Of the programs analysed, only the functions it accepts (by the program's index and the
   * function's name: the language server's units, src/runner/units.ts); default every function.
   */
  functions?: (p: Program, index: number, f: FunctionDef) => boolean;
  /** How many characters of the text the chosen programs and functions span (the arena is reserved for them); default the whole text. */
  analysedChars?: number;
  /**
   * How a run holds the file's tree (the runner's memory policy, src/runner/): `tree` parses each
   * text once and the passes share the whole tree (the editor); `stream` (default) does so too
   * for a text under STREAM_FROM_CHARS characters, and reads a larger one with a streaming parse
   * per analysis, its tree never whole (the CLI's large files; also whenever `lazyBlocks` is given).
   */
  memory?: 'tree' | 'stream';
  /** The module of the run's text parsed with these options (whole): its first parse is then not made again. */
  parsed?: Module;
}

/**
 * Texts from this many characters on are read streaming under the `stream` policy: below it no
 * block reaches the streaming parse's 4,096 statements, so streaming would only parse again.
 */
export const STREAM_FROM_CHARS = 256 * 1024;

/** Whether a run parses `text` once and shares the whole tree among its passes (RunOptions.memory). */
function sharesTree(text: string, opts: RunOptions): boolean {
  return opts.memory === 'tree' || (opts.lazyBlocks === undefined && text.length < STREAM_FROM_CHARS);
}

/**
 * The relations `applyPasses` and `audit` read from an evaluation (findings, edits, bad op
 * effects): only what they depend on is evaluated (an `.output` such as an explanation is not),
 * and every other relation is freed as soon as evaluation is done with it (EvaluateOptions.keep).
 */
export const PIPELINE_READS: ReadonlySet<string> = new Set([
  'finding',
  'finding_fix',
  'finding_note',
  'finding_related',
  'fixed_by_insertion',
  'finding_edit',
  'bad_op_effect',
  'insert_call',
  'call_arg',
  'call_kwarg',
  'replace_deps',
  'set_kwarg',
  'replace_kwarg',
  'remove_func_attr',
  'hoist_call',
  'bad_edit',
]);

/** The rule files and evaluation options of `pass` under `opts`. */
export function passRules(pass: PassSpec, opts: RunOptions): { extra: string[]; analyze: AnalyzeOptions } {
  const a: AnalyzeOptions = {};
  if (opts.rulesRoot !== undefined) a.rulesRoot = opts.rulesRoot;
  if (opts.deadline !== undefined) a.deadline = opts.deadline;
  if (opts.timeoutSeconds !== undefined) a.timeoutSeconds = opts.timeoutSeconds;
  if (opts.maxTuples !== undefined) a.maxTuples = opts.maxTuples;
  if (opts.includeDirs !== undefined) a.includeDirs = opts.includeDirs;
  if (opts.stage !== undefined) a.stage = opts.stage;
  if (opts.collect !== undefined) a.collect = opts.collect;
  a.session = opts.session ?? new RuleSession();
  return { extra: extrasFor(pass, opts.extras ?? [], PASSES, opts.rulesRoot, a.session), analyze: a };
}

export interface PassOutcome {
  pass: string;
  /** Number of edits the pass applied. */
  applied: number;
}

/**
 * Runs `passes` in order on a file's text: each pass parses the current text, derives its
 * edits and patches the text; the next pass reads the patched text. A program (a JIT kernel) in
 * which a pass's rules derive an error finding, or that cannot be read, is left untouched by every
 * pass and reported in `errors` (located); every other one is still rewritten. An error finding
 * outside every program stops the whole file (DiagnosticError, the text untouched).
 */
export function applyPasses(
  text: string,
  path: string,
  passes: readonly PassSpec[],
  options: RunOptions = {},
): { text: string; outcomes: PassOutcome[]; warnings: Diagnostic[]; errors: Diagnostic[]; others: OtherFile[] } {
  if (noKernel(text, options)) {
    // Nothing to judge: no rule is loaded (what the frontend says about the file is reported).
    const problems = (options.parsed ?? parseModuleIsolated(text, path, { defines: options.defines })).problems ?? [];
    return {
      text,
      outcomes: passes.map((p) => ({ pass: p.name, applied: 0 })),
      warnings: sortDiagnostics(problems.filter((d) => d.severity !== 'error')),
      errors: sortDiagnostics(problems.filter((d) => d.severity === 'error')),
      others: [],
    };
  }
  // The helper files the run patches (imported helpers judged as inlined here): their texts so far.
  const others = new OtherTexts(options.modules);
  const opts: RunOptions = { ...options, session: options.session ?? new RuleSession(), ...others.modules() };
  const arena = runArena(text, options);
  let current = text;
  const outcomes: PassOutcome[] = [];
  const warnings: Diagnostic[] = [];
  const read: FirstRead = { errors: null };
  // A lint-only contract (no `apply` file in its manifest) derives no edits: apply does not run it.
  const editing = passes.filter((p) => p.edits);
  // The programs / JIT kernels an error finding leaves untouched (by name: every pass), and those errors.
  const failed = new Set<string>();
  const localErrors: Diagnostic[] = [];
  // The reader of the current text: a pass that changed nothing leaves its parse to the next one.
  let reader: Reader | null = null;
  for (const [i, pass] of editing.entries()) {
    // Nothing of the previous pass's analysis is read any more: its arrays' blocks are reused.
    arena.reset();
    // (The first parse reads the original text: its errors and module warnings are the ones to report.)
    reader ??= parserOf(current, path, opts, read, warnings, i === 0 ? opts.parsed : undefined);
    const rules = passRules(pass, { ...opts, stage: 'pipeline' });
    // (The analysis is no local here: once read, nothing holds its result while the text is rewritten.)
    let got = readApplied(
      analyzeReleased(reader.parse, pass.entry, rules.extra, analysisOptions(rules.analyze, reader, arena)),
      reader,
      arena,
      i === editing.length - 1,
      opts.collect,
    );
    if (got === null) {
      outcomes.push({ pass: pass.name, applied: 0 });
      continue;
    }
    const errors = got.findings.filter((d) => d.severity === 'error');
    if (errors.length > 0 || failed.size > 0) {
      // A program (or JIT kernel) with an error is left untouched; the others are rewritten.
      // (The programs' extents from a full parse of the text: the analysis's module holds only what its results name.)
      const whole =
        reader.shared && !opts.programs && !opts.functions
          ? reader.parse(false)
          : parseModuleIsolated(current, path, {
              ...(opts.defines ? { defines: opts.defines } : {}),
              ...(opts.modules ? { modules: opts.modules } : {}),
            });
      const here = (ds: Diagnostic[]): Diagnostic[] => ds.map((d) => localize(d, whole.source, whole.parts));
      const kept = editsOutsideFailed(whole, got.table, got.edits, errors, failed);
      if (kept === null) throw new DiagnosticError(sortDiagnostics([...(read.errors ?? []), ...localErrors, ...here(errors)]));
      got.edits = kept;
      localErrors.push(...here(errors));
    }
    for (const d of got.findings) if (d.severity !== 'error') warnings.push(localize(d, got.module.source, got.module.parts));
    if (editCount(got.edits) === 0) {
      outcomes.push({ pass: pass.name, applied: 0 });
      continue;
    }
    // Only the text is used: the next pass parses it again. The module, its table and the edits
    // are let go before the text is patched (the patched text takes their place, not their
    // company, at the peak).
    const { source, textEdits, applied } = textEditsOf(got.module, got.table, got.edits);
    const parts = got.module.parts;
    got = null;
    opts.collect?.('extracted'); // (the tree, as after its facts)
    current = parts ? others.patch(parts, textEdits)[0]!.text : patchSource(source, textEdits).text;
    reader = null;
    outcomes.push({ pass: pass.name, applied });
    if (i < editing.length - 1) opts.collect?.('extracted'); // this pass's tree, before the next one's
  }
  if (read.errors === null) {
    const r = reader ?? parserOf(current, path, opts, read, warnings);
    r.parse(false);
    r.settle();
  }
  for (const p of passes) if (!p.edits) outcomes.push({ pass: p.name, applied: 0 });
  return {
    text: current,
    outcomes,
    warnings: sortDiagnostics(warnings),
    errors: sortDiagnostics([...(read.errors ?? []), ...localErrors]),
    others: others.changed(),
  };
}

/** A helper file a run on another file patched (apply): its text before and after. */
export interface OtherFile {
  file: string;
  before: string;
  after: string;
}

/**
 * The texts of the helper files a run patches (the bodies of imported helpers are judged as
 * inlined into the run's file, their markers inserted in their own file): the module reader the
 * run's parses read them through (the text patched so far, else `reader`'s), and what changed.
 */
class OtherTexts {
  private readonly now = new Map<string, string>();
  private readonly first = new Map<string, string>();
  constructor(private readonly reader: ModuleReader | undefined) {}

  /** The run's module reader (absent when imports are not followed). */
  modules(): { modules?: ModuleReader } {
    const base = this.reader;
    if (!base) return {};
    return { modules: { roots: base.roots, read: (p) => this.now.get(p) ?? base.read(p) } };
  }

  /** Patches each part of a module by its share of `edits`; returns the new sources (part 0: the run's file). */
  patch(parts: readonly ModulePart[], edits: SourceEditList): SourceText[] {
    const split = splitEdits(parts, edits);
    return parts.map((p, k) => {
      const next = split[k]!.length === 0 ? p.source : new SourceTextOf(p.source.path, patchSource(p.source, split[k]!).text);
      if (k > 0 && next !== p.source) {
        if (!this.first.has(p.source.path)) this.first.set(p.source.path, p.source.text);
        this.now.set(p.source.path, next.text);
      }
      return next;
    });
  }

  /** The helper files whose text changed. */
  changed(): OtherFile[] {
    return [...this.now]
      .filter(([f, t]) => this.first.get(f) !== t)
      .map(([file, after]) => ({ file, before: this.first.get(file)!, after }));
  }
}

/**
 * Audits a file against each pass's contract rules; returns the findings, sorted, with what
 * the frontend reports about the file (errors of programs / functions it could not read, which
 * are left out of the audit; import warnings; a `no-program` note).
 */
export function auditText(text: string, path: string, passes: readonly PassSpec[], opts: RunOptions = {}): Diagnostic[] {
  const r = auditReport(text, path, passes, opts);
  return sortDiagnostics([...r.readErrors, ...r.findings]);
}

/** What an audit reports: findings, the errors of what could not be read, and each finding's pass. */
export interface AuditOutcome {
  findings: Diagnostic[];
  readErrors: Diagnostic[];
  /** The pass whose rules derived each finding (absent: the frontend's, or the run's own). */
  passOf: ReadonlyMap<Diagnostic, string>;
}

/** As auditText, with the errors of what could not be read (`readErrors`) apart from the findings. */
export function auditReport(text: string, path: string, passes: readonly PassSpec[], options: RunOptions = {}): AuditOutcome {
  const steps = auditSteps(text, path, passes, options);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * auditReport step by step: yields the name of each pass before it runs (a caller may stop a
 * stale audit there by not resuming it).
 */
export function* auditSteps(
  text: string,
  path: string,
  passes: readonly PassSpec[],
  options: RunOptions = {},
): Generator<string, AuditOutcome, void> {
  const passOf = new Map<Diagnostic, string>();
  if (noKernel(text, options)) {
    const problems = (options.parsed ?? parseModuleIsolated(text, path, { defines: options.defines })).problems ?? [];
    return {
      findings: sortedUnique(problems.filter((d) => d.severity !== 'error')),
      readErrors: sortDiagnostics(problems.filter((d) => d.severity === 'error')),
      passOf,
    };
  }
  const others = new OtherTexts(options.modules);
  const opts: RunOptions = { ...options, session: options.session ?? new RuleSession(), ...others.modules() };
  const arena = runArena(text, options);
  const read: FirstRead = { errors: null };
  const out: Diagnostic[] = [];
  // The passes share one parse of the text (or, streaming, each parses it itself: see analyzeReleased).
  const reader = parserOf(text, path, opts, read, out, opts.parsed);
  // At the default stage the contracts compose as `apply` runs them: each judges the text the
  // earlier ones leave (their edits applied), its findings located back in the file as written.
  const compose = opts.stage !== 'as-written' && passes.length > 1;
  let current: { reader: Reader; maps: Map<string, LineMap> } | null = null;
  // Each file's text as written (the run's file, each helper file read), where findings are located.
  const original = new Map<string, SourceText>();
  for (const [i, pass] of passes.entries()) {
    yield pass.name;
    arena.reset(); // nothing of the previous pass's analysis is read any more
    const rules = passRules(pass, opts);
    const r = current?.reader ?? reader;
    const a = analyzeReleased(r.parse, pass.audit, rules.extra, analysisOptions(rules.analyze, r, arena));
    r.settle();
    if (i === passes.length - 1) giveBack(arena, a.result, opts.collect);
    if (!namesNodes(a.result)) continue;
    const { module, table } = reread(r.parse, a, namedIds(a.result, a.ids), r.shared ? undefined : opts.collect);
    opts.collect?.('extracted');
    const edits = readEdits(a.result);
    const found = withInsertionFixes(a.result, edits, table, module, readFindings(a.result, table, module.source, { related: true }));
    const parts = module.parts ?? [{ source: module.source, base: 0, spell: module.spell ?? { pl: 'pl', pld: 'pld' } }];
    for (const p of parts) if (!original.has(p.source.path)) original.set(p.source.path, p.source);
    for (const found1 of found) {
      const d = localize(found1, module.source, module.parts);
      const at = d.location?.source;
      const map = at ? current?.maps.get(at.path) : undefined;
      const located = at && map ? remapDiagnostic(d, at, original.get(at.path)!, map) : d;
      passOf.set(located, pass.name);
      out.push(located);
    }
    // The text this contract leaves, for the next one (as apply: none when it refuses, an error finding).
    if (!compose || i === passes.length - 1 || !pass.edits || editCount(edits) === 0 || found.some((d) => d.severity === 'error')) continue;
    const { source, textEdits } = textEditsOf(module, table, edits);
    const nexts = module.parts ? others.patch(module.parts, textEdits) : [new SourceTextOf(path, patchSource(source, textEdits).text)];
    const maps: Map<string, LineMap> = new Map(current ? current.maps : []);
    nexts.forEach((next, k) => {
      const before = parts[k]!.source;
      if (next !== before) maps.set(before.path, composeLineMaps(maps.get(before.path) ?? null, lineMapOf(before, next)));
    });
    current = { reader: parserOf(nexts[0]!.text, path, opts, { errors: [] }, []), maps };
  }
  if (read.errors === null) {
    reader.parse(false);
    reader.settle();
  }
  return { findings: sortedUnique(out), readErrors: read.errors ?? [], passOf };
}

/**
 * The analysis options of one pass read through `reader`: a shared tree is not consumed on the
 * way (no `collect`, which frees each statement once its facts are out: the next pass reads it).
 */
function analysisOptions(analyze: AnalyzeOptions, reader: Reader, arena: Arena): AnalyzeOptions {
  const o: AnalyzeOptions = { ...analyze, keep: PIPELINE_READS, arena };
  if (reader.shared) delete o.collect;
  return o;
}

/**
 * True when the text holds no program or kernel (mayHoldKernel) and no extra rule file is given
 * (whose own warnings a run reports): a run then loads no rules (a plain Python file: 2.7 s of
 * CPU saved).
 */
function noKernel(text: string, opts: RunOptions): boolean {
  return (opts.extras ?? []).length === 0 && !mayHoldKernel(text);
}

/**
 * What apply reads of a pass's analysis `a`: the findings and edits of its result, with the
 * module parsed again and the nodes they name (null when the result names none). `last`: the
 * run's last analysis (its arena's buffers are given back, see giveBack).
 */
function readApplied(
  a: ReleasedAnalysis,
  reader: Reader,
  arena: Arena,
  last: boolean,
  collect: RunOptions['collect'],
): { module: Module; table: NodeTable; findings: Diagnostic[]; edits: EditTable } | null {
  reader.settle();
  if (last) giveBack(arena, a.result, collect);
  if (!namesNodes(a.result)) return null;
  const { module, table } = reread(reader.parse, a, namedIds(a.result, a.ids), reader.shared ? undefined : collect);
  collect?.('extracted');
  return { module, table, findings: readFindings(a.result, table, module.source), edits: readEdits(a.result) };
}

/** What a run's first parse found: its errors (null before it). */
interface FirstRead {
  errors: Diagnostic[] | null;
}

/** Parses a run's text (streaming or whole); `settle` records what the first parse found. */
interface Reader {
  parse: (streaming: boolean) => Module;
  /** Whether every parse returns the one whole tree of the text (RunOptions.memory): it must not be consumed. */
  shared: boolean;
  /**
   * After the first analysis (a streaming parse's module knows its notes once extracted): when
   * `read.errors` is null, records the last parse's errors there and pushes its warnings and
   * notes to the run's warnings.
   */
  settle: () => void;
}

/**
 * The Reader of `text` in a run whose first parse is recorded in `read`, its warnings pushed to
 * `warnings`; `parsed`: the text's whole module, already parsed with the run's options.
 */
function parserOf(text: string, path: string, opts: RunOptions, read: FirstRead, warnings: Diagnostic[], parsed?: Module): Reader {
  let problems: Diagnostic[] | null = null;
  const shared = sharesTree(text, opts);
  const chosen = (module: Module): Module => (opts.programs || opts.functions ? chosenOf(module, opts) : module);
  let tree: Module | undefined = shared && parsed ? chosen(parsed) : undefined;
  const parse = (streaming: boolean): Module => {
    if (tree) return tree;
    const module = parseModuleIsolated(text, path, {
      defines: opts.defines,
      ...(streaming && !shared ? { streaming: opts.lazyBlocks ?? true } : {}),
      ...(opts.modules ? { modules: opts.modules } : {}),
    });
    return chosen(module);
  };
  return {
    shared,
    parse: (streaming) => {
      const module = parse(streaming);
      if (shared) tree = module;
      problems = module.problems ?? [];
      return module;
    },
    settle: () => {
      if (read.errors !== null || problems === null) return;
      read.errors = problems.filter((d) => d.severity === 'error');
      for (const d of problems) if (d.severity !== 'error') warnings.push(d);
    },
  };
}

/** `module` with only the programs and functions `opts.programs` and `opts.functions` accept (a program left without functions dropped). */
function chosenOf(module: Module, opts: RunOptions): Module {
  const programs: Program[] = [];
  module.programs.forEach((p, i) => {
    if (opts.programs && !opts.programs(p, i)) return;
    const keep = opts.functions;
    if (!keep || p.functions.length === 0) {
      programs.push(p);
      return;
    }
    const functions = p.functions.filter((f) => keep(p, i, f));
    if (functions.length > 0) programs.push(functions.length === p.functions.length ? p : { ...p, functions });
  });
  return { ...module, programs };
}

/**
 * The module `parse` gives (the text analyzeReleased evaluated, parsed again as it was:
 * `streamed`) with an id table numbered as the evaluated facts were (`ids` ids), keeping the
 * nodes of the ids in `named` only. The module comes back without its programs: nothing keeps
 * the rest of the tree, which the caller's `collect` gives back once this has returned (the tree
 * is on this call's stack).
 */
function reread(
  parse: (streaming: boolean) => Module,
  a: { ids: number; streamed: boolean },
  named: IdSet,
  collect: RunOptions['collect'],
): { module: Module; table: NodeTable } {
  const module = parse(a.streamed);
  const keep = (id: number): Keep => (named[id] === NODE ? 'node' : named[id] === DEPS ? 'deps' : named[id] === SPAN ? 'span' : 'none');
  const table = extractFacts(module, NO_FACTS, collect ? { keep, consume: { collect: () => collect('extracting') } } : { keep });
  // Parsing is deterministic: a different count is a ptolog bug, not the user's.
  if (table.size !== a.ids) throw new Error(`the text parsed again has ${table.size} node ids where its facts had ${a.ids}`);
  table.doneKeeping();
  // (Nor its statements not parsed yet: a streaming parse's are all read now.)
  const { pending: _pending, ...rest } = module;
  return { module: { ...rest, programs: [] }, table };
}

/**
 * `ds` sorted (sortDiagnostics) without repeats of one finding (a user rule file that extends
 * several passes derives it once per pass): the first of each is kept. Repeats sort next to each
 * other (same start, code and message), so no key is built per finding.
 */
function sortedUnique(ds: Diagnostic[]): Diagnostic[] {
  sortDiagnostics(ds);
  const out: Diagnostic[] = [];
  let run = 0; // where the findings of the current start, code and message begin in `out`
  for (const d of ds) {
    const r = out[run];
    if (r === undefined || r.location?.start !== d.location?.start || r.code !== d.code || r.message !== d.message) run = out.length;
    else if (repeats(out, run, d)) continue;
    out.push(d);
  }
  return out;
}

/** Whether `d` repeats one of `out[from..]` (the same severity, end and path; the rest is the same there). */
function repeats(out: readonly Diagnostic[], from: number, d: Diagnostic): boolean {
  for (let k = from; k < out.length; k++) {
    const o = out[k]!;
    if (o.severity === d.severity && o.location?.end === d.location?.end && (o.path ?? '') === (d.path ?? '')) return true;
  }
  return false;
}
