/**
 * The checks `ptolog verify` runs on one program, shared with the project's own property
 * tests (one implementation): termination, idempotence (text and IR), conservation, re-parse,
 * soundness against the abstract machine (src/verify/machine), for ExpandManualPhaseFence the
 * task order (src/verify/task-order.ts), and for the cache policy its model (cache-policy.ts).
 */
import { createTwoFilesPatch, diffLines, FILE_HEADERS_ONLY } from 'diff';
import { EvaluationStopped } from '../datalog/index.js';
import type { NodeTable } from '../facts/node-table.js';
import { parseModule } from '../frontend/index.js';
import { structurallyEqual } from '../ir/equal.js';
import { attrLineOf } from '../ir/func-attrs.js';
import type { FunctionDef, Module, Program } from '../ir/nodes.js';
import { readFindings } from '../passes/findings.js';
import type { VerifyModel } from '../passes/manifest.js';
import { readEdits } from '../passes/read-edits.js';
import type { PassSpec } from '../passes/registry.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { type EditSet, editCount } from '../rewrite/edits.js';
import { removeLines } from '../rewrite/patch.js';
import { rewrite } from '../rewrite/rewrite.js';
import type { Runner } from '../runner/runner.js';
import { cacheExpectation, hasCacheAttr, loadCaches } from './cache-policy.js';
import { formatRace, moduleRaces, type Race } from './machine/index.js';
import { taskOrderDifference } from './task-order.js';

/** The properties, in the order they are checked. */
export type PropertyName = 'terminates' | 'applies' | 're-parses' | 'conservative' | 'idempotent' | 'sound' | 'task-order' | 'cache-policy';

/** A program that breaks a property: what broke, and (for soundness) the stale-read execution. */
export interface CheckFailure {
  property: PropertyName;
  message: string;
  detail?: string;
}

export interface CheckOptions {
  /** Check soundness (when insert-comm-fence is among the passes; default true). */
  sound?: boolean;
  /** Check the cache-policy model (when cache-policy is among the passes; default false: programs of src/gen/cache.ts). */
  cachePolicy?: boolean;
  /** Milliseconds each pipeline run may take before `terminates` fails (default 10 000). */
  timeoutMs?: number;
  /** Called with the pipeline's runs of a program the rules rewrote (or left as it was). */
  onRuns?: (runs: readonly PassRun[]) => void;
}

/** One pass of one pipeline run: its input, output, inserted lines and rewritten tree. */
export interface PassRun {
  pass: string;
  input: string;
  output: string;
  insertedLines: number[];
  programs: Program[] | null;
  edits: number;
  /** Where in `input` the edits other than inserted lines may change text ([start, end] offsets). */
  editable: [number, number][];
}

const PATH = 'gen.py';

/**
 * Parses of the texts one check sees, each text parsed once (parsing dominates the cost of a
 * check). `peek` lends a tree that must not be changed; `take` hands it over (a rewrite edits
 * it in place) and forgets it; `give` returns an unchanged tree.
 */
export class Parses {
  private readonly trees = new Map<string, Module>();
  constructor(private readonly defines: Runner['config']['defines']) {}
  peek(text: string): Module {
    let m = this.trees.get(text);
    if (!m) this.trees.set(text, (m = parseModule(text, PATH, { defines: this.defines })));
    return m;
  }
  take(text: string): Module {
    const m = this.peek(text);
    this.trees.delete(text);
    return m;
  }
  give(text: string, m: Module): void {
    this.trees.set(text, m);
  }
}

/** The rules report errors on the program, so `apply` refuses to rewrite it. */
export class Refused extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => `${d.code}: ${d.message}`).join('; '));
  }
}

/**
 * Runs the runner's passes in order like `apply` (a pass with error findings refuses: Refused),
 * but with the tree rewriter (`rewrite`), keeping each pass's input, output and rewritten tree:
 * what the checks read. Each analysis is the runner's (Runner.analyze). Evaluation past
 * `deadline` (`performance.now()`) throws EvaluationTimeout.
 */
export function runPipeline(
  text: string,
  runner: Runner,
  deadline?: number,
  parses: Parses = new Parses(runner.config.defines),
): PassRun[] {
  const out: PassRun[] = [];
  let current = text;
  for (const pass of runner.passes) {
    const module = parses.take(current);
    const a = runner.analyze(module, pass, 'apply', deadline);
    const errors = readFindings(a.result, a.table, module.source).filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new Refused(errors);
    const edits = readEdits(a.result);
    const n = editCount(edits);
    if (n === 0) {
      parses.give(current, module);
      out.push({ pass: pass.name, input: current, output: current, insertedLines: [], programs: null, edits: 0, editable: [] });
      continue;
    }
    const editable = editableSpans(edits, a.table, current);
    const r = rewrite(module, a.table, edits);
    out.push({
      pass: pass.name,
      input: current,
      output: r.text,
      insertedLines: r.insertedLines,
      programs: r.module.programs,
      edits: n,
      editable,
    });
    current = r.text;
  }
  return out;
}

/**
 * The spans of `text` the edit vocabulary's in-place edits may change (inserted lines aside), as
 * whole lines: a keyword set on a call (the call's lines), a replaced deps list (the list's, or
 * the launch's header line when it has none), a removed `pl.func_attr` entry (the attribute's),
 * a hoisted call (its statement's).
 */
function editableSpans(edits: EditSet, table: NodeTable, text: string): [number, number][] {
  const out: [number, number][] = [];
  // Whole lines (the check compares lines).
  const lineSpan = (start: number, end: number): [number, number] => {
    const a = text.lastIndexOf('\n', start - 1) + 1;
    const e = text.indexOf('\n', end);
    return [a, e < 0 ? text.length : e + 1];
  };
  const span = (id: number): { start: number; end: number } | undefined => {
    const n = table.get(id) as { start?: number; end?: number } | undefined;
    return n && typeof n.start === 'number' && typeof n.end === 'number' ? { start: n.start, end: n.end } : undefined;
  };
  for (const k of [...edits.setKwarg, ...edits.replaceKwarg]) {
    const n = span(k.call);
    if (n) out.push(lineSpan(n.start, n.end));
  }
  for (const d of edits.replaceDeps) {
    const n = table.get(d.node) as { start: number; end: number; depsStart?: number; depsEnd?: number } | undefined;
    if (!n) continue;
    out.push(
      n.depsStart !== undefined && n.depsStart >= 0 && n.depsEnd !== undefined
        ? lineSpan(n.depsStart, n.depsEnd)
        : lineSpan(n.start, n.start),
    );
  }
  for (const f of edits.removeFuncAttr) {
    const fn = table.get(f.func) as FunctionDef | undefined;
    const line = fn?.kind === 'Function' ? attrLineOf(fn, f.key) : undefined;
    if (line) out.push(lineSpan(line.start, line.end));
  }
  for (const h of edits.hoist ?? []) {
    const n = span(h.stmt);
    if (n) out.push(lineSpan(n.start, n.end));
  }
  return out;
}

/** The first line where `after` differs from `before` outside `spans` (an offset of `before`), or null. */
function changeOutside(before: string, after: string, editable: readonly [number, number][]): number | null {
  // Adjacent spans (edits on consecutive lines) form one: a diff hunk may cover both.
  const spans: [number, number][] = [];
  for (const [a, b] of [...editable].sort((x, y) => x[0] - y[0])) {
    const last = spans.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else spans.push([a, b]);
  }
  let pos = 0;
  for (const part of diffLines(before, after)) {
    const len = part.value.length;
    if (part.added || part.removed) {
      const end = part.removed ? pos + len : pos;
      if (!spans.some(([a, b]) => a <= pos && end <= b)) return pos;
    }
    if (!part.added) pos += len;
  }
  return null;
}

function timed<T>(what: () => T, timeoutMs: number): T | CheckFailure {
  try {
    return what();
  } catch (e) {
    if (e instanceof EvaluationStopped) {
      return {
        property: 'terminates',
        message: `rule evaluation did not finish within ${timeoutMs / 1000} s or its tuple bound (${e.message})`,
      };
    }
    // The rules' edits cannot be applied (two edits of one span, a keyword the call already has).
    if (e instanceof DiagnosticError) return { property: 'applies', message: `apply fails: ${e.message}` };
    throw e;
  }
}

const isFailure = (x: unknown): x is CheckFailure => typeof x === 'object' && x !== null && 'property' in x && 'message' in x;

/**
 * The checks other than soundness: apply terminates, each pass's text re-parses to the tree it
 * rewrote, removing inserted lines (and undoing argument edits) gives its input back, and a
 * second apply changes nothing and derives no edit. Returns the first failure, 'refused' when
 * the rules reject the program with errors (nothing to check), or the pipeline's runs.
 */
export function checkRewrite(
  text: string,
  runner: Runner,
  o: CheckOptions = {},
  parses: Parses = new Parses(runner.config.defines),
): CheckFailure | 'refused' | PassRun[] {
  const timeoutMs = o.timeoutMs ?? 10_000;
  let first: PassRun[] | CheckFailure;
  try {
    first = timed(() => runPipeline(text, runner, performance.now() + timeoutMs, parses), timeoutMs);
  } catch (e) {
    if (e instanceof Refused) return 'refused';
    throw e;
  }
  if (isFailure(first)) return first;
  for (const r of first) {
    if (!r.programs) continue;
    const reparsed = parses.peek(r.output);
    if (!structurallyEqual(reparsed.programs, r.programs)) {
      return { property: 're-parses', message: `the text ${r.pass} wrote does not parse to the tree it rewrote` };
    }
    const at = changeOutside(r.input, removeLines(r.output, r.insertedLines), r.editable);
    if (at !== null) {
      const line = r.input.slice(0, at).split('\n').length;
      return {
        property: 'conservative',
        message: `${r.pass} changes line ${line} of its input outside what its edits name (inserted lines, the calls, deps lists and attributes they edit)`,
      };
    }
  }
  const once = first.at(-1)?.output ?? text;
  let second: PassRun[] | CheckFailure;
  try {
    second = timed(() => runPipeline(once, runner, performance.now() + timeoutMs, parses), timeoutMs);
  } catch (e) {
    if (e instanceof Refused) {
      return { property: 'idempotent', message: `apply refuses its own output: ${e.message}` };
    }
    throw e;
  }
  if (isFailure(second)) return second;
  const twice = second.at(-1)?.output ?? once;
  if (twice !== once) {
    const edited = second.filter((r) => r.edits > 0).map((r) => `${r.pass} (${r.edits} edits)`);
    return {
      property: 'idempotent',
      message: `apply(apply(x)) differs from apply(x): a second run edits again: ${edited.join(', ')}`,
      detail: createTwoFilesPatch('apply(x)', 'apply(apply(x))', once, twice, '', '', { context: 2, headerOptions: FILE_HEADERS_ONLY }),
    };
  }
  const still = second.filter((r) => r.edits > 0);
  if (still.length > 0) {
    return {
      property: 'idempotent',
      message: `the text is a fixpoint but the IR is not: a second run derives edits (${still.map((r) => r.pass).join(', ')})`,
    };
  }
  return first;
}

/** The machine's races in `text` and the lines the contract audit reports on in it. */
export function racesAndAuditLines(
  text: string,
  commPass: PassSpec,
  runner: Runner,
  parses: Parses,
  deadline?: number,
): { races: Race[]; lines: Set<number>; findings: Diagnostic[] } {
  const module = parses.peek(text);
  const races = moduleRaces(module);
  if (races.length === 0) return { races, lines: new Set(), findings: [] };
  // The races are in the text as it stands, so the audit judges it as written.
  const a = runner.with({ stage: 'as-written' }).analyze(module, commPass, 'audit', deadline);
  const findings = readFindings(a.result, a.table, module.source);
  return { races, findings, lines: new Set(findings.flatMap((d) => (d.location ? [d.location.source.lineOf(d.location.start)] : []))) };
}

/** Soundness of the rewrite: apply's output (`after`) is not racy. */
export function checkOutputSound(after: string, parses: Parses = new Parses(undefined)): CheckFailure | null {
  const afterRaces = moduleRaces(parses.peek(after));
  if (afterRaces.length === 0) return null;
  return {
    property: 'sound',
    message: `apply's output is racy: ${afterRaces[0]!.message}`,
    detail: `apply's output:\n${after}\n${formatRace(afterRaces[0]!)}`,
  };
}

/** Soundness of the audit: it reports a finding on the line of every race the machine finds in `before`. */
export function checkAuditSound(
  before: string,
  commPass: PassSpec,
  runner: Runner,
  parses: Parses = new Parses(runner.config.defines),
  deadline?: number,
): CheckFailure | null {
  const { races, lines, findings } = racesAndAuditLines(before, commPass, runner, parses, deadline);
  const missed = races.find((r) => !lines.has(r.line));
  if (!missed) return null;
  const reported = findings.map(
    (d) => `  ${d.location ? `line ${d.location.source.lineOf(d.location.start)}` : '-'}: ${d.code}: ${d.message}`,
  );
  return {
    property: 'sound',
    message: `audit reports nothing on line ${missed.line}, which is racy: ${missed.message}`,
    detail: `${formatRace(missed)}\naudit reported:\n${reported.length > 0 ? reported.join('\n') : '  nothing'}`,
  };
}

/**
 * The task order of ExpandManualPhaseFence's run in `runs`: every real task of its output
 * happens after the same tasks as in its input, no barrier reads an array written before a
 * task that depends on it, and nothing else is launched differently. Null when it holds.
 */
export function checkTaskOrder(runs: readonly PassRun[], passes: readonly PassSpec[], parses: Parses): CheckFailure | null {
  const judged = judgedBy(passes, 'task-order');
  const r = runs.find((x) => judged.has(x.pass));
  if (!r || r.edits === 0) return null;
  const diff = taskOrderDifference(parses.peek(r.input), parses.peek(r.output));
  if (diff === null) return null;
  return {
    property: 'task-order',
    message: `${r.pass} changes the order between tasks: ${diff}`,
    detail: createTwoFilesPatch('input', `${r.pass}(input)`, r.input, r.output, '', '', { context: 2, headerOptions: FILE_HEADERS_ONLY }),
  };
}

/**
 * The cache-policy errors the rules report on `text` against the model's (`line: code`, sorted):
 * a failure when they differ; 'errors' when both agree there are errors (the program is checked:
 * apply refuses it); the model's expected `cache=` of each load otherwise.
 */
function checkCacheErrors(
  text: string,
  pass: PassSpec,
  runner: Runner,
  parses: Parses,
  deadline: number,
): CheckFailure | 'errors' | (string | null)[] {
  const module = parses.peek(text);
  const model = cacheExpectation(module);
  const a = runner.analyze(module, pass, 'apply', deadline);
  const found = readFindings(a.result, a.table, module.source)
    .filter((d) => d.severity === 'error' && d.code.startsWith('cache-policy-') && d.location)
    .map((d) => `${d.location!.source.lineOf(d.location!.start)}: ${d.code}`)
    .sort();
  if (found.join('\n') !== model.errors.join('\n')) {
    return {
      property: 'cache-policy',
      message: `the rules report ${found.length > 0 ? found.join(', ') : 'no error'} where the contract expects ${model.errors.length > 0 ? model.errors.join(', ') : 'none'}`,
    };
  }
  return model.errors.length > 0 ? 'errors' : model.stamps;
}

/** Each load of cache-policy's output carries the `cache=` the model expects, and no `cache_policy` attribute is left. */
export function checkCacheStamps(
  runs: readonly PassRun[],
  passes: readonly PassSpec[],
  expected: readonly (string | null)[],
  parses: Parses,
): CheckFailure | null {
  const judged = judgedBy(passes, 'cache-stamps');
  const r = runs.find((x) => judged.has(x.pass));
  if (!r) return null;
  const out = parses.peek(r.output);
  const got = loadCaches(out);
  const lines: string[] = [];
  let k = 0;
  const loads: number[] = [];
  // The line of each load in the output, for the message.
  out.source.text.split('\n').forEach((l, i) => {
    for (const _ of l.matchAll(/\bpl\.(?:tile\.)?load\(/g)) loads.push(i + 1);
  });
  for (; k < Math.max(got.length, expected.length); k++) {
    if (got[k] !== expected[k]) {
      lines.push(
        `the load at line ${loads[k] ?? '?'} has ${got[k] ? `cache=${got[k]}` : 'no cache='} where the contract expects ${expected[k] ? `cache=${expected[k]}` : 'none'}`,
      );
    }
  }
  if (hasCacheAttr(out)) lines.push('a pl.func_attr "cache_policy" entry is left in an InCore function');
  if (lines.length === 0) return null;
  return {
    property: 'cache-policy',
    message: lines[0]!,
    detail: [
      ...lines.slice(1),
      createTwoFilesPatch('input', `${r.pass}(input)`, r.input, r.output, '', '', { context: 2, headerOptions: FILE_HEADERS_ONLY }),
    ].join('\n'),
  };
}

/** The names of the contracts whose manifests name `model` among the models that judge them. */
function judgedBy(passes: readonly PassSpec[], model: VerifyModel): Set<string> {
  return new Set(passes.filter((p) => p.verifyModels.includes(model)).map((p) => p.name));
}

/** Every check on one program with the runner's passes; null when it passes, 'refused' when the rules reject it with errors. */
export function checkProgram(text: string, runner: Runner, o: CheckOptions = {}): CheckFailure | 'refused' | null {
  const passes = runner.passes;
  const parses = new Parses(runner.config.defines);
  const comm = o.sound === false ? undefined : passes.find((p) => p.verifyModels.includes('memory'));
  // The audit reads the input's tree before the pipeline rewrites it in place; it runs under
  // the same deadline as apply (a rule set that does not terminate must not hang it).
  const timeoutMs = o.timeoutMs ?? 10_000;
  const auditFailure = comm ? timed(() => checkAuditSound(text, comm, runner, parses, performance.now() + timeoutMs), timeoutMs) : null;
  if (auditFailure?.property === 'terminates') return auditFailure;
  // The cache-policy model judges the text as cache-policy receives it (it runs first).
  const cache = o.cachePolicy === true && passes[0]?.verifyModels.includes('cache-stamps') ? passes[0] : undefined;
  const stamps = cache ? timed(() => checkCacheErrors(text, cache, runner, parses, performance.now() + timeoutMs), timeoutMs) : null;
  if (stamps !== null && isFailure(stamps)) return stamps;
  if (stamps === 'errors') return null;
  const r = checkRewrite(text, runner, o, parses);
  if (r === 'refused') return r;
  if (isFailure(r)) return r;
  o.onRuns?.(r);
  const order = checkTaskOrder(r, passes, parses);
  if (order) return order;
  const stamped = stamps ? checkCacheStamps(r, passes, stamps, parses) : null;
  if (stamped) return stamped;
  if (!comm) return null;
  return checkOutputSound(r.at(-1)?.output ?? text, parses) ?? auditFailure;
}
