// Deterministic output order of a relation's rows without decoding: an LSD radix sort on
// per-column keys (numbers as signed integers, symbols by the rank of their text). A number
// column with a value beyond 32 bits is ordered by a stable comparison sort instead (exact 64-bit).
import type { Kind } from './ast.js';
import type { Relation } from './relation.js';
import type { SymbolTable } from './symbols.js';

/** Rank of every symbol id in code-unit order of the texts. */
function symbolRanks(symbols: SymbolTable): Uint32Array {
  const n = symbols.size;
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const texts: string[] = [];
  for (let i = 0; i < n; i++) texts.push(symbols.text(i));
  ids.sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : 0));
  const rank = new Uint32Array(n);
  for (let i = 0; i < n; i++) rank[ids[i]!] = i;
  return rank;
}

/** True when column `c` of the `n` rows of `d` (arity `a`) holds only 32-bit values. */
function int32Column(d: Int32Array | Float64Array, a: number, c: number, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const v = d[i * a + c]!;
    if ((v | 0) !== v) return false;
  }
  return true;
}

/** Row numbers of `rel` sorted column by column (numbers numerically, symbols by text). */
export function sortedRowOrder(rel: Relation, kinds: readonly Kind[], symbols: SymbolTable): Int32Array {
  const n = rel.count;
  const a = rel.arity;
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2 || a === 0) return order;
  let tmp = new Int32Array(n);
  const keys = new Uint32Array(n);
  const ranks = kinds.includes('symbol') ? symbolRanks(symbols) : null;
  const d = rel.data;
  for (let c = a - 1; c >= 0; c--) {
    if (kinds[c] === 'number' && !int32Column(d, a, c, n)) {
      const sorted = Array.from(order).sort((x, y) => symbols.numbers.cmp(d[x * a + c]!, d[y * a + c]!));
      order.set(sorted);
      continue;
    }
    let min = 0xffffffff;
    let max = 0;
    for (let i = 0; i < n; i++) {
      const v = d[i * a + c]!;
      const k = kinds[c] === 'symbol' ? ranks![v]! : (v ^ 0x80000000) >>> 0;
      keys[i] = k;
      if (k < min) min = k;
      if (k > max) max = k;
    }
    const range = max - min + 1;
    // One counting pass when the keys span a small range, else two 16-bit passes.
    const passes: Array<[number, number, number]> =
      range <= Math.max(65536, 2 * n) ? [[0, 0xffffffff, range]] : [[0, 0xffff, 65536], [16, 0xffff, 65536]];
    for (const [shift, digitMask, buckets] of passes) {
      const base = buckets === range ? min : 0;
      const counts = new Uint32Array(buckets + 1);
      for (let i = 0; i < n; i++) counts[(((keys[order[i]!]! - base) >>> shift) & digitMask) + 1]!++;
      for (let b = 0; b < buckets; b++) counts[b + 1]! += counts[b]!;
      for (let i = 0; i < n; i++) {
        const r = order[i]!;
        tmp[counts[((keys[r]! - base) >>> shift) & digitMask]!++] = r;
      }
      const t = order;
      order = tmp;
      tmp = t;
    }
  }
  return order;
}
