/**
 * The checks `ptolog verify` runs on one program, shared with the project's own property
 * tests (one implementation): termination, idempotence (text and IR), conservation, re-parse,
 * and soundness against the abstract machine (src/verify/machine).
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { EvaluationStopped } from '../datalog/index.js';
import { parseModule } from '../frontend/index.js';
import { structurallyEqual } from '../ir/equal.js';
import type { Module, Program } from '../ir/nodes.js';
import { analyze } from '../passes/analyze.js';
import { readFindings } from '../passes/findings.js';
import { passRules, type RunOptions } from '../passes/pipeline.js';
import { readEdits } from '../passes/read-edits.js';
import type { PassSpec } from '../passes/registry.js';
import { RuleSession } from '../passes/rule-session.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { editCount } from '../rewrite/edits.js';
import { removeLines } from '../rewrite/patch.js';
import { rewrite } from '../rewrite/rewrite.js';
import { formatRace, moduleRaces, type Race } from './machine/index.js';

/** The properties, in the order they are checked. */
export type PropertyName = 'terminates' | 're-parses' | 'conservative' | 'idempotent' | 'sound';

/** A program that breaks a property: what broke, and (for soundness) the stale-read execution. */
export interface CheckFailure {
  property: PropertyName;
  message: string;
  detail?: string;
}

export interface CheckOptions {
  /** Check soundness (when insert-comm-fence is among the passes; default true). */
  sound?: boolean;
  /** Rule options (extra rule files, `--rules-root`, defines) as `apply` takes them. */
  run?: RunOptions;
  /** Milliseconds each pipeline run may take before `terminates` fails (default 10 000). */
  timeoutMs?: number;
}

/** One pass of one pipeline run: its input, output, inserted lines and rewritten tree. */
export interface PassRun {
  pass: string;
  input: string;
  output: string;
  insertedLines: number[];
  programs: Program[] | null;
  edits: number;
}

const PATH = 'gen.py';

/**
 * Parses of the texts one check sees, each text parsed once (parsing dominates the cost of a
 * check). `peek` lends a tree that must not be changed; `take` hands it over (a rewrite edits
 * it in place) and forgets it; `give` returns an unchanged tree.
 */
export class Parses {
  private readonly trees = new Map<string, Module>();
  constructor(private readonly defines: RunOptions['defines']) {}
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
 * Runs `passes` in order like `apply` (a pass with error findings refuses: Refused),
 * keeping each pass's input, output and rewritten tree. Evaluation past `deadline`
 * (`performance.now()`) throws EvaluationTimeout.
 */
export function runPipeline(
  text: string,
  passes: readonly PassSpec[],
  run: RunOptions,
  deadline?: number,
  parses: Parses = new Parses(run.defines),
): PassRun[] {
  const out: PassRun[] = [];
  let current = text;
  for (const pass of passes) {
    const module = parses.take(current);
    const rules = passRules(pass, deadline === undefined ? run : { ...run, deadline });
    const a = analyze(module, pass.entry, rules.extra, rules.analyze);
    const errors = readFindings(a.result, a.table, module.source).filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new Refused(errors);
    const edits = readEdits(a.result);
    const n = editCount(edits);
    if (n === 0) {
      parses.give(current, module);
      out.push({ pass: pass.name, input: current, output: current, insertedLines: [], programs: null, edits: 0 });
      continue;
    }
    const r = rewrite(module, a.table, edits);
    out.push({ pass: pass.name, input: current, output: r.text, insertedLines: r.insertedLines, programs: r.module.programs, edits: n });
    current = r.text;
  }
  return out;
}

/** Text with the argument edits a pass may make undone: `deps=` lists, stamped `cache=`, `pl.func_attr` lines. */
function withoutArgumentEdits(t: string): string {
  return t
    .replace(/deps=\[[^\]]*\]/g, 'deps=[]')
    .replace(/,\s*cache=(?:pl\.CachePolicy\.\w+|\d+)/g, '')
    .split('\n')
    .filter((l) => !l.includes('pl.func_attr('))
    .join('\n');
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
  passes: readonly PassSpec[],
  o: CheckOptions = {},
  parses: Parses = new Parses(o.run?.defines),
): CheckFailure | 'refused' | PassRun[] {
  // Every pipeline run of the check shares one rule session (the caller's, or one for this call).
  const run: RunOptions = { ...(o.run ?? {}), session: o.run?.session ?? new RuleSession() };
  const timeoutMs = o.timeoutMs ?? 10_000;
  let first: PassRun[] | CheckFailure;
  try {
    first = timed(() => runPipeline(text, passes, run, performance.now() + timeoutMs, parses), timeoutMs);
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
    if (withoutArgumentEdits(removeLines(r.output, r.insertedLines)) !== withoutArgumentEdits(r.input)) {
      return {
        property: 'conservative',
        message: `removing the lines ${r.pass} inserted (and undoing its argument edits) does not give its input back`,
      };
    }
  }
  const once = first.at(-1)?.output ?? text;
  let second: PassRun[] | CheckFailure;
  try {
    second = timed(() => runPipeline(once, passes, run, performance.now() + timeoutMs, parses), timeoutMs);
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
  run: RunOptions,
  parses: Parses,
): { races: Race[]; lines: Set<number>; findings: Diagnostic[] } {
  const module = parses.peek(text);
  const races = moduleRaces(module);
  if (races.length === 0) return { races, lines: new Set(), findings: [] };
  // The races are in the text as it stands, so the audit judges it as written.
  const rules = passRules(commPass, { ...run, stage: 'as-written' });
  const a = analyze(module, commPass.audit, rules.extra, rules.analyze);
  const findings = readFindings(a.result, a.table, module.source);
  return { races, findings, lines: new Set(findings.flatMap((d) => (d.location ? [d.location.source.lineOf(d.location.start)] : []))) };
}

/** Soundness of the rewrite: apply's output (`after`) is not racy. */
export function checkOutputSound(after: string, run: RunOptions = {}, parses: Parses = new Parses(run.defines)): CheckFailure | null {
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
  run: RunOptions = {},
  parses: Parses = new Parses(run.defines),
): CheckFailure | null {
  const { races, lines, findings } = racesAndAuditLines(before, commPass, run, parses);
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

/** Every check on one program; null when it passes, 'refused' when the rules reject it with errors. */
export function checkProgram(text: string, passes: readonly PassSpec[], o: CheckOptions = {}): CheckFailure | 'refused' | null {
  // One rule session for the program's checks (the caller's, or one for this call).
  const run: RunOptions = { ...(o.run ?? {}), session: o.run?.session ?? new RuleSession() };
  const parses = new Parses(run.defines);
  const comm = o.sound === false ? undefined : passes.find((p) => p.name === 'insert-comm-fence');
  // The audit reads the input's tree before the pipeline rewrites it in place; it runs under
  // the same deadline as apply (a rule set that does not terminate must not hang it).
  const timeoutMs = o.timeoutMs ?? 10_000;
  const auditFailure = comm
    ? timed(() => checkAuditSound(text, comm, { ...run, deadline: performance.now() + timeoutMs }, parses), timeoutMs)
    : null;
  if (auditFailure?.property === 'terminates') return auditFailure;
  const r = checkRewrite(text, passes, { ...o, run }, parses);
  if (r === 'refused') return r;
  if (isFailure(r)) return r;
  if (!comm) return null;
  return checkOutputSound(r.at(-1)?.output ?? text, run, parses) ?? auditFailure;
}
