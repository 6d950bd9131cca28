/**
 * The editor's audit of a document (the language server, the playground): the runner's audit,
 * run unit by unit (analysisUnits: groups of functions, each function with those it calls or
 * that call it, `@pl.inline` helpers and JIT kernels with their callers) on one parse of the
 * text, so that a unit whose text (its functions' and its programs' outside their functions, the
 * functions and program headers at the same start lines; constants, the imported modules read,
 * settings and rules) is the same as
 * in the previous analysis of the document reuses that analysis, its findings moved to the
 * unit's new offsets. A keystroke inside one function re-analyses only that function's unit
 * (and the units after it when it adds or removes lines: findings name lines); editing a helper
 * re-analyses its callers, editing an imported module its importers. The findings are those of
 * `ptolog audit` on the same text. The parse reads again only the functions whose text changed
 * (function-memo.ts). The cache is a value the caller keeps per document (no state here).
 */

import { functionMemo } from '../frontend/function-memo.js';
import type { ModuleReader } from '../frontend/index.js';
import type { FunctionDef, Module } from '../ir/nodes.js';
import { sortDiagnostics } from '../passes/findings.js';
import { type Diagnostic, DiagnosticError, type Location } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import type { Runner } from './runner.js';
import { analysisUnits, type Piece, type Unit, type Words } from './units.js';

/** A finding and the pass whose rules derived it ('' for a parse or rule-file error). */
export interface PassFinding {
  pass: string;
  diagnostic: Diagnostic;
}

/** One unit's findings, as computed on `source` (where its pieces were at `pieces`, in source order). */
export interface UnitAudit {
  source: SourceText;
  pieces: Piece[];
  findings: PassFinding[];
}

/** A step of the audit: the pass about to run and the functions of the unit it judges (`Program.function`). */
export interface UnitStep {
  pass: string;
  unit: string;
}

/**
 * What the analysis of a document keeps for the next one: its per-unit analyses, keyed by what
 * decides them (see `unitsSteps`); the functions its parse read and their words (reused where
 * their text is the same: function-memo.ts, units.ts).
 */
export interface ProgramCache {
  readonly units: ReadonlyMap<string, UnitAudit>;
  readonly functions: ReadonlyMap<string, FunctionDef>;
  readonly words: ReadonlyMap<string, Words>;
}

/** The analysis of a document, unit by unit. */
export interface ProgramsAudit {
  /** Sorted as the CLI sorts them, each once. */
  findings: PassFinding[];
  /** The cache to pass to the next analysis of the same document. */
  cache: ProgramCache;
  /** How many units were analysed now (the others came from the cache), of how many. */
  analysed: number;
  total: number;
}

const constText = (m: ReadonlyMap<string, unknown> | undefined): string => JSON.stringify(m ? [...m] : []);

/** What makes two diagnostics the same finding (as the CLI's de-duplication reads them). */
function sameKey(d: Diagnostic): string {
  return [d.severity, d.code, d.message, d.location?.start ?? -1, d.location?.end ?? -1, d.location?.source.path ?? d.path ?? ''].join(
    '\u0000',
  );
}

/** A location of `from` moved into `to`, by the delta of the piece that holds it (other files kept). */
function moved(loc: Location, from: SourceText, to: SourceText, shift: (offset: number) => number): Location {
  if (loc.source !== from) return loc;
  const delta = shift(loc.start);
  return { source: to, start: loc.start + delta, end: loc.end + delta };
}

/**
 * The index of the first of `pieces` (sorted, not overlapping) that holds `offset` (its ends
 * included), else of the last one ending before it; -1 when it comes before them all.
 */
function pieceAt(pieces: readonly Piece[], offset: number): number {
  let lo = 0;
  let hi = pieces.length - 1;
  let j = -1; // the last piece starting at or before `offset`
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pieces[mid]!.start <= offset) {
      j = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (j < 0) return -1;
  // (Pieces may touch: the first one holding the offset.)
  while (j > 0 && pieces[j - 1]!.end >= offset) j--;
  return j;
}

/** A finding computed on `from` as it reads in `to`, where each piece of its unit moved by its own delta. */
function rebase(d: Diagnostic, from: SourceText, to: SourceText, shift: (offset: number) => number): Diagnostic {
  const out: Diagnostic = { ...d };
  if (d.location) out.location = moved(d.location, from, to, shift);
  if (d.related) out.related = d.related.map((r) => ({ ...r, location: moved(r.location, from, to, shift) }));
  if (d.fixEdits && d.location?.source === from) {
    // (After the finding's statement: moved with it.)
    const delta = shift(d.location.start);
    out.fixEdits = d.fixEdits.map((e) => ({ ...e, start: e.start + delta, end: e.end + delta }));
  }
  return out;
}

/** The findings of the runner's audit of `units` together (the module's problems left out), yielding before each pass. */
function* analyseUnits(
  runner: Runner,
  text: string,
  path: string,
  module: Module,
  units: readonly Unit[],
  problemKeys: ReadonlySet<string>,
): Generator<UnitStep, PassFinding[], void> {
  const functions = new Map<number, Set<string>>();
  for (const u of units) for (const [i, names] of u.functions) functions.set(i, new Set([...(functions.get(i) ?? []), ...names]));
  const steps = runner.auditSteps(text, path, {
    programs: (_p, i) => functions.has(i),
    functions: (_p, i, f) => functions.get(i)?.has(f.name) ?? false,
    analysedChars: units.reduce((n, u) => n + u.chars, 0),
    parsed: module,
  });
  const unit = units
    .flatMap((u) => u.programs.flatMap((p, k) => [...u.functions.get(u.indices[k]!)!].map((f) => `${p.name}.${f}`)))
    .join(', ');
  let step = steps.next();
  while (!step.done) {
    yield { pass: step.value, unit };
    step = steps.next();
  }
  const r = step.value;
  const mine: PassFinding[] = [];
  for (const d of [...r.readErrors, ...r.findings]) {
    if (!problemKeys.has(sameKey(d))) mine.push({ pass: r.passOf.get(d) ?? '', diagnostic: d });
  }
  return mine;
}

/**
 * `units` analysed together, each finding given to the unit one of whose functions holds it
 * (only that unit's facts name that text); null when a finding lies in none (in another file,
 * outside every function): the units are then analysed one by one.
 */
function* batch(
  runner: Runner,
  text: string,
  path: string,
  module: Module,
  units: readonly Unit[],
  problemKeys: ReadonlySet<string>,
): Generator<UnitStep, Map<Unit, PassFinding[]> | null, void> {
  const found = yield* analyseUnits(runner, text, path, module, units, problemKeys);
  const out = new Map<Unit, PassFinding[]>(units.map((u) => [u, []]));
  for (const f of found) {
    const loc = f.diagnostic.location;
    const at = loc?.source === module.source ? loc.start : -1;
    const owner = units.find((u) => u.bodies.some((x) => at >= x.start && at < x.end));
    if (!owner) return null;
    out.get(owner)!.push(f);
  }
  return out;
}

/**
 * Audits a document unit by unit with `runner` (or the runner `runner()` builds: its rule files'
 * errors are then findings too), reusing `previous` for unchanged units (`salt`:
 * what else decides them, e.g. the rules' generation); yields before each pass of each unit it
 * analyses (so a caller can let newer edits in and stop early). A document whose rule files do
 * not load gives their errors as findings (pass '').
 */
export function* auditUnitsSteps(
  runner: Runner | (() => Runner),
  text: string,
  path: string,
  salt: string,
  previous?: ProgramCache,
): Generator<UnitStep, ProgramsAudit, void> {
  try {
    return yield* unitsSteps(typeof runner === 'function' ? runner() : runner, text, path, salt, previous);
  } catch (e) {
    // A rule file that does not load: its errors are the findings.
    if (e instanceof DiagnosticError) {
      return {
        findings: e.diagnostics.map((d) => ({ pass: '', diagnostic: d })),
        cache: { units: new Map(), functions: new Map(), words: new Map() },
        analysed: 0,
        total: 0,
      };
    }
    throw e;
  }
}

function* unitsSteps(
  runner: Runner,
  text: string,
  path: string,
  salt: string,
  previous: ProgramCache | undefined,
): Generator<UnitStep, ProgramsAudit, void> {
  const cache = new Map<string, UnitAudit>();
  const before = previous?.units ?? new Map<string, UnitAudit>();
  // The imported modules read (path and what was read) decide every unit's analysis.
  const imports: string[] = [];
  const read = (p: string, got: ReturnType<ModuleReader['read']>): void =>
    void imports.push(p, typeof got === 'string' ? got : JSON.stringify(got));
  let functions = functionMemo(previous?.functions);
  let module = runner.parse(text, path, read, functions);
  if ((module.problems ?? []).length > 0) {
    // Where a text has a problem, where the parser reports it may depend on which statements it
    // read before (its cache of repeated statement groups chunks the text differently): read it
    // as a whole parse does, reusing nothing, so that its messages are the CLI's.
    imports.length = 0;
    functions = functionMemo();
    module = runner.parse(text, path, read, functions);
  }
  const source = module.source;
  // What the CLI reports besides the passes' findings: unknown -D names, the module's read errors and warnings.
  const problems = [...runner.defineWarnings(text, path, module), ...(module.problems ?? [])];
  const problemKeys = new Set(problems.map(sameKey));
  const all: PassFinding[] = problems.map((d) => ({ pass: '', diagnostic: d }));
  // A JIT kernel's name decides how a call to it reads in any program.
  const jitNames = module.programs
    .filter((p) => p.jit)
    .flatMap((p) => p.functions.map((f) => f.name))
    .sort()
    .join(',');
  const words = { previous: previous?.words ?? new Map<string, Words>(), next: new Map<string, Words>() };
  const units = analysisUnits(source, module.programs, words);
  const shared = [salt, imports.join('\u0002'), constText(module.constants), jitNames].join('\u0000');
  // Each piece to the end of its last line: a fix is inserted at the next line's start, so what
  // follows the piece on that line (trailing blanks, a comment) moves it. With its start line
  // when it holds what a finding may name: a function, a program's header (decorator and class
  // line). A class program's other stretches (blank lines, comments, a docstring between its
  // functions) hold no node: the one right before a function of the unit by its text (its
  // comments are that function's), the others by their number alone (the unit's pieces are
  // matched one to one when its findings are moved): a line added between two other functions
  // moves the units after it, not this one. (A piece of several units is read once.)
  const pieceKeys = new Map<string, string>();
  const pieceKey = (x: Piece, lined: boolean): string => {
    const at = `${x.start},${x.end},${lined}`;
    let k = pieceKeys.get(at);
    if (k === undefined) {
      const text = source.text.slice(x.start, source.lineStart(source.lineOf(x.end) + 1));
      k = lined ? `${source.lineOf(x.start)}\u0001${text}` : `\u0001${text}`;
      pieceKeys.set(at, k);
    }
    return k;
  };
  const keys = units.map((u) => {
    const heads = new Set(u.programs.map((p) => p.start));
    const bodies = new Set(u.bodies.map((b) => b.start));
    const parts = [shared, ...u.programs.map((p) => constText(p.constants)), `${u.pieces.length}`];
    u.pieces.forEach((x, i) => {
      // (Each piece keyed with its place among the unit's pieces.)
      if (heads.has(x.start) || bodies.has(x.start)) parts.push(`${i}\u0003${pieceKey(x, true)}`);
      else if (bodies.has(u.pieces[i + 1]?.start ?? -1)) parts.push(`${i}\u0003${pieceKey(x, false)}`);
    });
    return parts.join('\u0000');
  });
  const reused = (k: number): UnitAudit | undefined => before.get(keys[k]!);
  const missing = units.filter((_, k) => !reused(k));
  // Several units to analyse (a document opened): analysed together, each finding given to the
  // unit whose function holds it (one evaluation per pass, not one per unit and pass).
  const together = missing.length > 1 && !module.parts ? yield* batch(runner, text, path, module, missing, problemKeys) : null;
  let analysed = 0;
  for (const [k, u] of units.entries()) {
    const key = keys[k]!;
    let audit = reused(k);
    if (audit) {
      const old = audit;
      // The piece holding the offset (else the last one before it) moved by its own delta.
      const shift = (offset: number): number => {
        const i = pieceAt(old.pieces, offset);
        return i >= 0 ? u.pieces[i]!.start - old.pieces[i]!.start : 0;
      };
      for (const f of old.findings) all.push({ pass: f.pass, diagnostic: rebase(f.diagnostic, old.source, source, shift) });
    } else {
      const mine = together?.get(u) ?? (yield* analyseUnits(runner, text, path, module, [u], problemKeys));
      analysed++;
      audit = { source, pieces: u.pieces, findings: mine };
      all.push(...mine);
    }
    cache.set(key, audit);
  }
  // Sorted and each finding once, as the CLI reports them (a rule file extending several passes derives it once per pass).
  const byDiagnostic = new Map(all.map((f) => [f.diagnostic, f]));
  const seen = new Set<string>();
  const findings: PassFinding[] = [];
  for (const d of sortDiagnostics(all.map((f) => f.diagnostic))) {
    const k = sameKey(d);
    if (seen.has(k)) continue;
    seen.add(k);
    findings.push(byDiagnostic.get(d)!);
  }
  return { findings, cache: { units: cache, functions: functions.next, words: words.next }, analysed, total: units.length };
}
