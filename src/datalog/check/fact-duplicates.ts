// Which facts of a packed table (fact-table.ts's layout) repeat an earlier one: known once, a
// relation's facts are loaded into each evaluation as rows without a dedup set (written-facts.ts).
import { hashFinish, hashStep, hashValue } from '../storage/hash.js';
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
  select: (rel: number) => boolean = () => true,
): Uint8Array {
  // Datalog: dup(F) :- fact(F, R, Args), fact(G, R, Args), G < F.
  const n = heads.length;
  const dup = new Uint8Array(n);
  const slots = new Int32Array(pow2(2 * n));
  const mask = slots.length - 1;
  for (let f = 0; f < n; f++) {
    const r = heads[f]!;
    if (!select(r)) continue;
    const from = starts[f]!;
    const to = starts[f + 1]!;
    let h = hashStep(0, r);
    for (let j = from; j < to; j++) h = hashValue(h, values[j]!);
    h = hashFinish(h);
    let slot = h & mask;
    for (;;) {
      const e = slots[slot]!;
      if (e === 0) {
        slots[slot] = f + 1;
        break;
      }
      if (sameFact(e - 1, f)) {
        dup[f] = 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return dup;

  function sameFact(g: number, f: number): boolean {
    if (heads[g] !== heads[f]) return false;
    const a = starts[g]!;
    const b = starts[f]!;
    const len = starts[f + 1]! - b;
    if (starts[g + 1]! - a !== len) return false;
    for (let j = 0; j < len; j++) if (values[a + j] !== values[b + j] || isString[a + j] !== isString[b + j]) return false;
    return true;
  }
}

/** Whether the strings are distinct (a table whose strings repeat cannot compare its facts by string index). */
export function distinctStrings(strings: readonly string[]): boolean {
  return new Set(strings).size === strings.length;
}
