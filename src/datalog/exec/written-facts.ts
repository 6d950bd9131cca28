// The facts written in a program's rule files, prepared once per program, and their loading into
// each evaluation's relations.
import { distinctStrings, duplicateFacts, type KnownDuplicates } from '../check/fact-duplicates.js';
import { MemoSlot, type ProgramClause, type RuleProgram } from '../check/program.js';
import type { Relation } from '../storage/relation.js';
import { hashString, type SymbolTable } from '../storage/symbols.js';
import { type FactRows, factOffsets } from './fact-rows.js';

/**
 * The facts written in a program's rule files (an op catalog of two thousand), prepared once per
 * program: every evaluation loads them, and encoding each argument (a bigint, a string to intern)
 * per file cost more than the rules on a small kernel. `plain` when every argument is a string or
 * a number within ±(2^53 - 1) (their encoding is the same in every database but for the strings'
 * ids): flat `values` (a number, or for a string its index in `strings`), `starts` per fact.
 */
export interface WrittenFacts {
  clauses: readonly ProgramClause[];
  /** The relations facts are written for. */
  rels: Set<number>;
  plain: boolean;
  strings: readonly string[];
  /** hashString of each of `strings`. */
  hashes: Int32Array;
  heads: Int32Array;
  clauseIds: Int32Array;
  starts: Int32Array;
  values: Float64Array;
  isString: Uint8Array;
  /** The largest arity. */
  width: number;
  /** Where each relation's facts start among all of them (see FactRows). */
  offsets: Int32Array;
  /**
   * Per relation, 1 when its facts are loaded as rows without a dedup set (`plain` only): their
   * repeats are known (`dup`), it has columns, and every number of its facts fits 32 bits.
   */
  bulk: Uint8Array;
  /** Per fact, 1 when it repeats an earlier fact (of a `bulk` relation: the others' are not looked for). */
  dup: Uint8Array;
}

/** A program's facts written in its rule files, as evaluation loads them (made once per program). */
export const WRITTEN_FACTS = new MemoSlot('facts written in the rule files', (program: RuleProgram): WrittenFacts => {
  // Packed already (a program read from compiled rules): no fact's clause is made.
  const t = program.facts;
  if (t) {
    const { clauses, strings, heads, clauseIds, starts, values, isString, width } = t;
    const hashes = t.hashes ?? Int32Array.from(strings, hashString);
    const offsets = factOffsets(heads, program.relations.length);
    const known = t.known ?? compare(heads, starts, values, isString, strings, program.relations.length);
    const bulk = bulkRelations(program, known, heads, starts, values, isString, t.narrow);
    return {
      clauses,
      rels: relationsOf(offsets),
      plain: true,
      strings,
      hashes,
      heads,
      clauseIds,
      starts,
      values,
      isString,
      width,
      offsets,
      bulk,
      dup: known.dup,
    };
  }
  const clauses = program.clauses.filter((c) => c.clause.isFact);
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const values: number[] = [];
  const isString: number[] = [];
  const starts = [0];
  let plain = true;
  let width = 0;
  for (const pc of clauses) {
    const args = pc.clause.head.args;
    width = Math.max(width, args.length);
    for (const a of args) {
      if (a.kind === 'str') {
        let i = stringIndex.get(a.value);
        if (i === undefined) {
          i = strings.push(a.value) - 1;
          stringIndex.set(a.value, i);
        }
        values.push(i);
        isString.push(1);
      } else if (a.kind === 'num' && a.value >= -SAFE_BIG && a.value <= SAFE_BIG) {
        values.push(Number(a.value) + 0);
        isString.push(0);
      } else plain = false;
    }
    starts.push(values.length);
  }
  const heads = Int32Array.from(clauses, (c) => c.head);
  const packed = { starts: Int32Array.from(starts), values: Float64Array.from(values), isString: Uint8Array.from(isString) };
  const known = plain
    ? compare(heads, packed.starts, packed.values, packed.isString, strings, program.relations.length)
    : { dup: new Uint8Array(heads.length), rels: new Uint8Array(program.relations.length) };
  const offsets = factOffsets(heads, program.relations.length);
  return {
    clauses,
    rels: relationsOf(offsets),
    plain,
    strings,
    hashes: Int32Array.from(strings, hashString),
    heads,
    clauseIds: Int32Array.from(clauses, (c) => c.id),
    ...packed,
    width,
    offsets,
    bulk: plain ? bulkRelations(program, known, heads, packed.starts, packed.values, packed.isString) : known.rels,
    dup: known.dup,
  };
});

/** The repeats of facts not compared by their maker: every relation's, unless the strings repeat (then none is known). */
function compare(
  heads: Int32Array,
  starts: Int32Array,
  values: Float64Array,
  isString: Uint8Array,
  strings: readonly string[],
  relations: number,
): KnownDuplicates {
  if (!distinctStrings(strings)) return { dup: new Uint8Array(heads.length), rels: new Uint8Array(relations) };
  return { dup: duplicateFacts(heads, starts, values, isString), rels: new Uint8Array(relations).fill(1) };
}

/** The relations that have facts (`offsets` as factOffsets gives them). */
function relationsOf(offsets: Int32Array): Set<number> {
  const rels = new Set<number>();
  for (let r = 0; r + 1 < offsets.length; r++) if (offsets[r + 1]! > offsets[r]!) rels.add(r);
  return rels;
}

/**
 * Per relation, 1 when its facts' repeats are known, it has columns and every number of its facts
 * fits 32 bits (`narrow` per relation, when its maker knows; else the numbers are looked at).
 */
function bulkRelations(
  program: RuleProgram,
  known: KnownDuplicates,
  heads: Int32Array,
  starts: Int32Array,
  values: Float64Array,
  isString: Uint8Array,
  narrow?: Uint8Array,
): Uint8Array {
  const bulk = new Uint8Array(program.relations.length);
  for (let r = 0; r < bulk.length; r++) bulk[r] = known.rels[r] === 1 && program.relations[r]!.kinds.length > 0 ? 1 : 0;
  if (narrow) {
    for (let r = 0; r < bulk.length; r++) if (narrow[r] === 0) bulk[r] = 0;
    return bulk;
  }
  for (let f = 0; f < heads.length; f++) {
    const r = heads[f]!;
    if (bulk[r] === 0) continue;
    for (let j = starts[f]!; j < starts[f + 1]!; j++) {
      const v = values[j]!;
      if (isString[j] === 0 && (v | 0) !== v) bulk[r] = 0;
    }
  }
  return bulk;
}

/** The integers a double holds exactly, as bigints (a fact's number within them is stored as itself). */
const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Adds the packed facts of the rule files (every argument a string or a plain number) to `rels`
 * at height 0, recording each new row's clause in `factRows`: the strings interned once each, in
 * the order their first use would intern them (the same ids as argument by argument). A `bulk`
 * relation still empty gets its rows without a dedup check (its known repeats skipped: the same
 * rows, in the same order, as one by one); another, each fact through `Relation.add`. Its own
 * function: its loops, hot in every evaluation, are optimised apart from the rest of `evaluate`.
 */
export function loadPackedFacts(facts: WrittenFacts, symbols: SymbolTable, rels: readonly Relation[], factRows: FactRows): void {
  // Datalog: r(Args) :- fact(F, r, Args), \+ dup(F).   (a fact clause adds its tuple once)
  const ids = new Float64Array(facts.strings.length);
  for (let i = 0; i < ids.length; i++) ids[i] = symbols.internHashed(facts.strings[i]!, facts.hashes[i]!);
  // (One tuple array for every fact added one by one: a relation reads the first `arity` values.)
  const t = new Float64Array(Math.max(1, facts.width));
  const { heads, clauseIds, starts, values, isString, bulk, dup, offsets } = facts;
  // The rows of each bulk relation still empty, and how many it has so far.
  const rows: (Int32Array | null)[] = [];
  const counts = new Int32Array(rels.length);
  // Their rows' clauses, relation r's from offsets[r] (as FactRows keeps them).
  const rowClauses = new Int32Array(heads.length);
  for (let r = 0; r < rels.length; r++) {
    const rel = rels[r]!;
    rows.push(bulk[r] === 1 && rel.count === 0 ? new Int32Array((offsets[r + 1]! - offsets[r]!) * rel.arity) : null);
  }
  for (let f = 0; f < heads.length; f++) {
    const h = heads[f]!;
    const from = starts[f]!;
    const n = starts[f + 1]! - from;
    const out = rows[h]!;
    if (out !== null) {
      if (dup[f] === 1) continue;
      const row = counts[h]!;
      const base = row * n;
      for (let j = 0; j < n; j++) {
        const v = values[from + j]!;
        out[base + j] = isString[from + j] === 1 ? ids[v]! : v;
      }
      counts[h] = row + 1;
      rowClauses[offsets[h]! + row] = clauseIds[f]!;
      continue;
    }
    for (let j = 0; j < n; j++) {
      const v = values[from + j]!;
      t[j] = isString[from + j] === 1 ? ids[v]! : v;
    }
    const rel = rels[h]!;
    if (rel.add(t, 0)) factRows.add(h, rel.count - 1, clauseIds[f]!);
  }
  for (let r = 0; r < rels.length; r++) {
    const out = rows[r];
    if (!out) continue;
    rels[r]!.appendDistinct(out, counts[r]!, 0);
    factRows.addRows(r, 0, rowClauses.subarray(offsets[r]!, offsets[r]! + counts[r]!));
  }
}
