// The facts of a compiled program (compiled.ts) in their stored form: runs of the facts of one
// source, each one flat array of numbers and a table of strings, read back into a FactTable
// (check/fact-table.ts) with every index and offset checked, and no syntax tree made per fact.
import type { SourceText } from '../../report/source.js';
import { distinctStrings, duplicateFacts, type KnownDuplicates } from '../check/fact-duplicates.js';
import type { PackedFacts } from '../check/fact-table.js';
import type { ProgramClause, RelationInfo } from '../check/program.js';
import { hashString } from '../storage/symbols.js';

/**
 * A run of facts of one source file, stored apart from the program (a part of the entry, see
 * compiled.ts): nothing in it depends on the program (its relations are named, its clause ids
 * counted from its first fact's), so the programs that include one op catalog store the same
 * text, and a caller decodes it once. `count` facts with `args` arguments in all; `rels`, the
 * relations of its facts with their column kinds (`s` symbol, `n` number); `strings`; and `rows`
 * with per fact `id, rel, start, end, headStart, headEnd, nameStart, nameEnd`, then per argument
 * (as many as its relation has columns) `value, start, end`: in a symbol column the value is the
 * index of the string in `strings`, in a number column the number. `id` is counted from the run's
 * first fact, `rel` indexes `rels`, every offset but a clause's start is counted from that start.
 */
export interface PlainFacts {
  paths: [string];
  rels: [string, string][];
  count: number;
  args: number;
  strings: string[];
  rows: number[];
}

/** A run of facts decoded (PlainFacts, checked), shared by the programs of a caller that store it. */
export interface FactRun {
  /** The relations of its facts, by name, with their columns' kinds (`s`/`n`). */
  rels: readonly (readonly [string, string])[];
  strings: readonly string[];
  /** Per fact: its clause id counted from the first's, its relation's index in `rels`. */
  ids: Int32Array;
  heads: Int32Array;
  /** As PackedFacts's. */
  locs: Int32Array;
  starts: Int32Array;
  values: Float64Array;
  isString: Uint8Array;
  argLocs: Int32Array;
  /** Per fact, 1 when an earlier fact of the run is the same (duplicateFacts); null when its strings repeat (not compared). */
  dups: Uint8Array | null;
  /** hashString of each of `strings`. */
  hashes: Int32Array;
  /** Per relation of `rels`, 1 when every number of its facts fits 32 bits. */
  narrow: Uint8Array;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether `o` has exactly `n` own keys (nothing the stored form would drop). */
function exactKeys(o: object, n: number): boolean {
  let k = 0;
  for (const _ in o) k++;
  return k === n;
}

/**
 * The stored runs of the facts of `clauses` that it can hold (each with the clause id of its
 * first fact), and the set of those clauses: facts whose arguments are strings and numbers
 * within ±(2^53 - 1), located in one source, of exactly the shape the parser makes, none of
 * their objects reached from elsewhere (`shared`). A run is the facts of one source that follow
 * one another among the packed facts, in clause order; `pathOf` gives a source's stored path.
 */
export function packFacts(
  clauses: readonly ProgramClause[],
  relations: readonly RelationInfo[],
  pathOf: (s: SourceText) => string,
  shared: ReadonlySet<object>,
): { runs: { base: number; facts: PlainFacts }[]; packed: Set<ProgramClause> } {
  const runs: { base: number; facts: PlainFacts }[] = [];
  const packed = new Set<ProgramClause>();
  let run: { base: number; facts: PlainFacts; source: SourceText; rels: Map<number, number>; strings: Map<string, number> } | undefined;
  for (const pc of clauses) {
    if (!packable(pc)) continue;
    const src = pc.clause.loc.source;
    if (run?.source !== src) {
      const facts: PlainFacts = { paths: [pathOf(src)], rels: [], count: 0, args: 0, strings: [], rows: [] };
      run = { base: pc.id, facts, source: src, rels: new Map(), strings: new Map() };
      runs.push(run);
    }
    packed.add(pc);
    const f = run.facts;
    const c = pc.clause;
    const h = c.head;
    let rel = run.rels.get(pc.head);
    if (rel === undefined) {
      const info = relations[pc.head]!;
      rel = f.rels.push([info.name, info.kinds.map((k) => (k === 'symbol' ? 's' : 'n')).join('')]) - 1;
      run.rels.set(pc.head, rel);
    }
    const at = c.loc.start;
    f.rows.push(pc.id - run.base, rel, at, c.loc.end - at, h.loc.start - at, h.loc.end - at, h.nameLoc.start - at, h.nameLoc.end - at);
    for (const a of h.args) {
      let v: number;
      if (a.kind === 'num') v = Number(a.value);
      else {
        const value = (a as { value: string }).value;
        const known = run.strings.get(value);
        v = known ?? f.strings.push(value) - 1;
        if (known === undefined) run.strings.set(value, v);
      }
      f.rows.push(v, a.loc.start - at, a.loc.end - at);
    }
    f.count++;
    f.args += h.args.length;
  }
  return { runs: runs.map(({ base, facts }) => ({ base, facts })), packed };

  function packable(pc: ProgramClause): boolean {
    const c = pc.clause;
    const h = c.head;
    if (!c.isFact || c.body.length > 0 || pc.varKinds.size > 0 || !exactKeys(c, 4) || !exactKeys(h, 4)) return false;
    if (relations[pc.head]?.name !== h.rel || [c, h, h.args, c.loc, h.loc, h.nameLoc].some((x) => shared.has(x))) return false;
    const src = c.loc.source;
    if (h.loc.source !== src || h.nameLoc.source !== src || !exactKeys(c.loc, 3) || !exactKeys(h.loc, 3) || !exactKeys(h.nameLoc, 3))
      return false;
    const kinds = relations[pc.head]!.kinds;
    return h.args.every((a, i) => {
      if ((a.kind !== 'str' && a.kind !== 'num') || !exactKeys(a, 3) || !exactKeys(a.loc, 3)) return false;
      if (a.loc.source !== src || shared.has(a) || shared.has(a.loc) || (a.kind === 'str') !== (kinds[i] === 'symbol')) return false;
      return a.kind === 'str' || (a.value >= -MAX_SAFE && a.value <= MAX_SAFE);
    });
  }
}

/** Thrown by unpackFacts and joinFacts on stored facts that are not well formed (compiled.ts turns it into BadCompiledRules). */
export class BadFacts extends Error {}

/**
 * The FactRun of stored facts in `source`, checked: ids increasing from 0 up, each relation of
 * `rels` (its columns say which arguments are strings), each location within the source's text,
 * each string index in range, each number within ±(2^53 - 1). Throws BadFacts otherwise. (One
 * pass of plain comparisons: it runs before the JIT has warmed up.)
 */
export function unpackFacts(plain: unknown, source: SourceText): FactRun {
  const p = plain as Partial<PlainFacts> | null;
  if (p === null || typeof p !== 'object' || !Array.isArray(p.strings) || !Array.isArray(p.rows) || !Array.isArray(p.rels))
    throw new BadFacts('no facts');
  const { count, args, strings, rows, rels } = p as PlainFacts;
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(args) || count < 0 || args < 0 || count * 8 + args * 3 !== rows.length)
    throw new BadFacts('a bad count of facts');
  for (const s of strings) if (typeof s !== 'string') throw new BadFacts('a string that is not one');
  const symbol = rels.map((r) => {
    if (!Array.isArray(r) || typeof r[0] !== 'string' || typeof r[1] !== 'string' || !/^[sn]*$/.test(r[1]))
      throw new BadFacts('a bad relation');
    return [...r[1]].map((k) => (k === 's' ? 1 : 0));
  });
  const out: FactRun = {
    rels,
    strings,
    ids: new Int32Array(count),
    heads: new Int32Array(count),
    locs: new Int32Array(6 * count),
    starts: new Int32Array(count + 1),
    values: new Float64Array(args),
    isString: new Uint8Array(args),
    argLocs: new Int32Array(2 * args),
    dups: null,
    hashes: Int32Array.from(strings, hashString),
    narrow: new Uint8Array(rels.length).fill(1),
  };
  const { ids, heads, locs, starts, values, isString, argLocs } = out;
  const size = source.text.length;
  const nStrings = strings.length;
  let r = 0;
  let a = 0;
  let last = -1;
  for (let f = 0; f < count; f++) {
    const id = rows[r]!;
    const head = rows[r + 1]!;
    const at = rows[r + 2]!;
    if ((id | 0) !== id || id <= last || (f === 0 && id !== 0) || (head | 0) !== head || head < 0 || head >= symbol.length)
      throw new BadFacts('a bad fact');
    if ((at | 0) !== at || at < 0 || at > size) throw new BadFacts('a bad fact location');
    last = id;
    ids[f] = id;
    heads[f] = head;
    locs[6 * f] = at;
    for (let k = 1; k < 6; k++) {
      const x = rows[r + 2 + k]!;
      if ((x | 0) !== x || x < -at || x > size - at) throw new BadFacts('a bad fact location');
      locs[6 * f + k] = at + x;
    }
    r += 8;
    if (locs[6 * f + 1]! < at || locs[6 * f + 3]! < locs[6 * f + 2]! || locs[6 * f + 5]! < locs[6 * f + 4]!)
      throw new BadFacts('a bad fact location');
    const cols = symbol[head]!;
    starts[f] = a;
    if (a + cols.length > args) throw new BadFacts('a bad count of arguments');
    for (let j = 0; j < cols.length; j++, a++, r += 3) {
      const v = rows[r]!;
      const str = cols[j]!;
      if (str === 1 ? (v | 0) !== v || v < 0 || v >= nStrings : typeof v !== 'number' || !Number.isSafeInteger(v))
        throw new BadFacts('a bad fact argument');
      isString[a] = str;
      values[a] = v + 0; // (never -0)
      if (str === 0 && (v | 0) !== v) out.narrow[head] = 0;
      const from = rows[r + 1]!;
      const to = rows[r + 2]!;
      if ((from | 0) !== from || (to | 0) !== to || from < -at || to > size - at || to < from)
        throw new BadFacts('a bad argument location');
      argLocs[2 * a] = at + from;
      argLocs[2 * a + 1] = at + to;
    }
  }
  if (a !== args) throw new BadFacts('a bad count of arguments');
  starts[count] = a;
  // Once per run (the programs that store it share it): which facts repeat one before them.
  if (distinctStrings(strings)) out.dups = duplicateFacts(heads, starts, values, isString);
  return out;
}

/**
 * The PackedFacts of a program from its runs, in order, each with the clause id of its first fact
 * and the index of its source among the program's: every relation a run names is one of
 * `relations` with the same columns, and the clause ids increase across the runs. Throws BadFacts
 * otherwise. One run's arrays are the table's (shared: never written).
 */
export function joinFacts(
  runs: readonly { run: FactRun; base: number; source: number }[],
  relations: readonly RelationInfo[],
): PackedFacts {
  const byName = new Map(relations.map((r) => [r.name, r]));
  let count = 0;
  let args = 0;
  for (const { run } of runs) {
    count += run.ids.length;
    args += run.values.length;
  }
  const clauseIds = new Int32Array(count);
  const heads = new Int32Array(count);
  const sources = new Int32Array(count);
  const one = runs.length === 1 ? runs[0]!.run : undefined;
  const out: PackedFacts = {
    strings: one ? one.strings : [],
    clauseIds,
    heads,
    sources,
    locs: one ? one.locs : new Int32Array(6 * count),
    starts: one ? one.starts : new Int32Array(count + 1),
    values: one ? one.values : new Float64Array(args),
    isString: one ? one.isString : new Uint8Array(args),
    argLocs: one ? one.argLocs : new Int32Array(2 * args),
    hashes: one ? one.hashes : new Int32Array(runs.reduce((n, r) => n + r.run.strings.length, 0)),
    narrow: new Uint8Array(relations.length).fill(1),
  };
  const hashes = out.hashes!;
  const narrow = out.narrow!;
  // Known repeats: a relation's facts all in one run whose facts were compared (a repeat across
  // runs, or in a run not compared, is looked for when its facts are loaded).
  const known: KnownDuplicates = { dup: new Uint8Array(count), rels: new Uint8Array(relations.length) };
  const runOf = new Int32Array(relations.length).fill(-1);
  // The largest run's strings first: its values are copied as they are (the others' string indices shifted).
  const largest = runs.reduce<FactRun | undefined>((m, r) => (m && m.values.length >= r.run.values.length ? m : r.run), undefined);
  const strings = out.strings as string[];
  if (!one && largest) {
    for (const x of largest.strings) strings.push(x);
    hashes.set(largest.hashes);
  }
  let f = 0;
  let a = 0;
  let last = -1;
  for (let ri = 0; ri < runs.length; ri++) {
    const { run, base, source } = runs[ri]!;
    if (!Number.isSafeInteger(base) || base < 0 || base + (run.ids[run.ids.length - 1] ?? 0) > 0x7fffffff) throw new BadFacts('a bad fact');
    const ids = run.rels.map(([name, kinds]) => {
      const info = byName.get(name);
      if (!info || info.kinds.map((k) => (k === 'symbol' ? 's' : 'n')).join('') !== kinds) throw new BadFacts('a fact of another relation');
      return info.id;
    });
    const n = run.ids.length;
    for (let q = 0; q < ids.length; q++) {
      const rel = ids[q]!;
      // (1: its facts are known so far; 2: not.)
      known.rels[rel] = runOf[rel] === -1 && run.dups !== null ? 1 : 2;
      runOf[rel] = ri;
      if (run.narrow[q] === 0) narrow[rel] = 0;
    }
    if (run.dups) known.dup.set(run.dups, f);
    for (let i = 0; i < n; i++, f++) {
      const id = base + run.ids[i]!;
      if (id <= last) throw new BadFacts('a bad fact');
      last = id;
      clauseIds[f] = id;
      heads[f] = ids[run.heads[i]!]!;
      sources[f] = source;
    }
    if (one) continue;
    const from = f - n;
    out.locs.set(run.locs, 6 * from);
    (out.argLocs as Int32Array).set(run.argLocs, 2 * a);
    (out.isString as Uint8Array).set(run.isString, a);
    for (let i = 0; i < n; i++) out.starts[from + i] = a + run.starts[i]!;
    const values = out.values;
    if (run === largest) values.set(run.values, a);
    else {
      const shift = strings.length;
      for (let j = 0; j < run.values.length; j++) values[a + j] = run.isString[j] === 1 ? run.values[j]! + shift : run.values[j]!;
      for (const s of run.strings) strings.push(s);
      hashes.set(run.hashes, shift);
    }
    a += run.values.length;
  }
  if (!one) out.starts[count] = a;
  for (let r = 0; r < known.rels.length; r++) if (known.rels[r] === 2) known.rels[r] = 0;
  out.known = known;
  return out;
}
