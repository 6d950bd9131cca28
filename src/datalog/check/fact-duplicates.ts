// Which facts of a packed table (fact-table.ts's layout) repeat an earlier one: known once, a
// relation's facts are loaded into each evaluation as rows without a dedup set (written-facts.ts).
import { pow2 } from '../storage/row-scan.js';

/**
 * What is known of the repeated facts of a program's packed facts: `dup[f]` is 1 when an earlier
 * fact of the same relation has the same arguments, for the facts of the relations r with
 * `rels[r]` 1 (the others' repeats were not looked for: load them one by one).
 */
export interface KnownDuplicates {
  dup: Uint8Array;
  rels: Uint8Array;
}

/**
 * Per fact (its relation `heads[f]`, its arguments `values[starts[f]..starts[f + 1])`, each a
 * number or, with `isString` 1, a string's index), 1 when an earlier fact is the same relation with
 * the same arguments, else 0. A string is compared by its index: the table's strings must be
 * distinct. Only the facts of relations r with `select(r)` are compared (the others get 0).
 */
export function duplicateFacts(
  heads: Int32Array,
  starts: Int32Array,
  values: Float64Array,
  isString: Uint8Array,
  select?: (rel: number) => boolean,
): Uint8Array {
  // Datalog: dup(F) :- fact(F, R, Args), fact(G, R, Args), G < F.
  // (One loop, its hashing and comparing written out: it runs once per run of facts, before the
  // JIT has warmed up, where each call costs more than the arithmetic.)
  const n = heads.length;
  const dup = new Uint8Array(n);
  const slots = new Int32Array(pow2(2 * n));
  const mask = slots.length - 1;
  for (let f = 0; f < n; f++) {
    const r = heads[f]!;
    if (select !== undefined && !select(r)) continue;
    const from = starts[f]!;
    const len = starts[f + 1]! - from;
    let h = Math.imul(r ^ 0x5bd1e995, 0x9e3779b1);
    for (let j = 0; j < len; j++) {
      const v = values[from + j]!;
      const lo = v | 0;
      h = (Math.imul(h ^ lo, 0x9e3779b1) ^ ((v - lo) / 4294967296)) | 0;
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h ^= h >>> 13;
    let slot = h & mask;
    for (;;) {
      const e = slots[slot]!;
      if (e === 0) {
        slots[slot] = f + 1;
        break;
      }
      // Fact g = e - 1: the same relation, the same arguments?
      const g = e - 1;
      const at = starts[g]!;
      let same = heads[g] === r && starts[g + 1]! - at === len;
      for (let j = 0; same && j < len; j++) same = values[at + j] === values[from + j] && isString[at + j] === isString[from + j];
      if (same) {
        dup[f] = 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return dup;
}

/** Whether the strings are distinct (a table whose strings repeat cannot compare its facts by string index). */
export function distinctStrings(strings: readonly string[]): boolean {
  return new Set(strings).size === strings.length;
}
