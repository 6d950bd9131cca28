// Deterministic output order of a relation's rows without decoding: an LSD radix sort on
// per-column keys (numbers as signed integers, symbols by the rank of their text). Adjacent
// columns whose key ranges fit 32 bits together are sorted as one key; each radix pass moves
// the keys along with the row numbers, so it reads sequentially. A number column with a value
// beyond 32 bits is ordered by a stable comparison sort instead (exact 64-bit).

import type { Kind } from '../syntax/ast.js';
import type { Arena } from './arena.js';
import type { Relation } from './relation.js';
import type { SymbolTable } from './symbols.js';

/** The symbols in code-unit order of their texts: `rank[id]` and its inverse `byRank[rank]`. */
export interface SymbolOrder {
  rank: Uint32Array;
  byRank: Int32Array;
}

/** The text order of every symbol of the table (the ids whose text it forgot last, by id: no row holds them). */
export function symbolOrder(symbols: SymbolTable): SymbolOrder {
  const n = symbols.size;
  const texts = symbols.texts();
  const known = n - symbols.forgottenCount;
  const byRank = new Int32Array(n);
  for (let i = 0, k = 0, f = known; i < n; i++) byRank[texts[i] === undefined ? f++ : k++] = i;
  byRank.subarray(0, known).sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : 0));
  const rank = new Uint32Array(n);
  for (let i = 0; i < n; i++) rank[byRank[i]!] = i;
  return { rank, byRank };
}

/** True when column `c` of the `n` rows of `d` (arity `a`) holds only 32-bit values. */
function int32Column(d: Int32Array | Float64Array, a: number, c: number, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const v = d[i * a + c]!;
    if ((v | 0) !== v) return false;
  }
  return true;
}

/** The unsigned 32-bit sort keys of column `c` (symbols by rank, numbers biased) and their range. */
function columnKeys(
  d: Int32Array | Float64Array,
  a: number,
  c: number,
  n: number,
  ranks: Uint32Array | null,
): { keys: Uint32Array; min: number; max: number } {
  const keys = new Uint32Array(n);
  let min = 0xffffffff;
  let max = 0;
  if (ranks) {
    for (let i = 0, p = c; i < n; i++, p += a) {
      const k = ranks[d[p]!]!;
      keys[i] = k;
      if (k < min) min = k;
      if (k > max) max = k;
    }
  } else {
    for (let i = 0, p = c; i < n; i++, p += a) {
      const k = (d[p]! ^ 0x80000000) >>> 0;
      keys[i] = k;
      if (k < min) min = k;
      if (k > max) max = k;
    }
  }
  return { keys, min, max };
}

/**
 * Stable LSD radix sort of `order` (row numbers) by `key` (the key of the row at each position,
 * values below `range`), moving `carry` (more per-position keys) along. Returns the new arrays.
 */
function radixPass(
  order: Int32Array,
  key: Uint32Array,
  range: number,
  carry: Uint32Array[],
): { order: Int32Array; key: Uint32Array; carry: Uint32Array[] } {
  const n = order.length;
  if (range <= 1) return { order, key, carry };
  const bits = 32 - Math.clz32(range - 1);
  const passes = Math.ceil(bits / 16);
  const digitBits = Math.ceil(bits / passes);
  const mask = (1 << digitBits) - 1; // digitBits <= 16
  const buckets = Math.min(range, 2 ** digitBits);
  let o: Int32Array = order;
  let k: Uint32Array = key;
  let cs: Uint32Array[] = carry;
  let o2: Int32Array = new Int32Array(n);
  let k2: Uint32Array = new Uint32Array(n);
  let cs2: Uint32Array[] = carry.map(() => new Uint32Array(n));
  const counts = new Uint32Array(buckets + 1);
  for (let p = 0; p < passes; p++) {
    const shift = p * digitBits;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((k[i]! >>> shift) & mask) + 1]!++;
    for (let b = 0; b < buckets; b++) counts[b + 1]! += counts[b]!;
    if (cs.length === 0) {
      for (let i = 0; i < n; i++) {
        const x = k[i]!;
        const at = counts[(x >>> shift) & mask]!++;
        o2[at] = o[i]!;
        k2[at] = x;
      }
    } else if (cs.length === 1) {
      const c0 = cs[0]!;
      const d0 = cs2[0]!;
      for (let i = 0; i < n; i++) {
        const x = k[i]!;
        const at = counts[(x >>> shift) & mask]!++;
        o2[at] = o[i]!;
        k2[at] = x;
        d0[at] = c0[i]!;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const x = k[i]!;
        const at = counts[(x >>> shift) & mask]!++;
        o2[at] = o[i]!;
        k2[at] = x;
        for (let j = 0; j < cs.length; j++) cs2[j]![at] = cs[j]![i]!;
      }
    }
    const to = o;
    o = o2;
    o2 = to;
    const tk = k;
    k = k2;
    k2 = tk;
    const tc = cs;
    cs = cs2;
    cs2 = tc;
  }
  return { order: o, key: k, carry: cs };
}

/**
 * Row numbers of `rel` sorted column by column (numbers numerically, symbols by text);
 * `ranks` is `symbolOrder` of the table (computed here when not given and a column is a symbol).
 */
export function sortedRowOrder(rel: Relation, kinds: readonly Kind[], symbols: SymbolTable, ranks?: SymbolOrder): Int32Array {
  const n = rel.count;
  const a = rel.arity;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2 || a === 0) return order;
  const d = rel.data;
  for (let c = 0; c < a; c++) if (kinds[c] === 'number' && !int32Column(d, a, c, n)) return byComparison(rel, kinds, symbols, ranks);
  const r = kinds.includes('symbol') ? (ranks ?? symbolOrder(symbols)).rank : null;
  // Words: runs of adjacent columns whose key ranges multiply to at most 2^32, each one key.
  const words: Array<{ keys: Uint32Array; range: number }> = [];
  let c = 0;
  while (c < a) {
    const first = columnKeys(d, a, c, n, kinds[c] === 'symbol' ? r : null);
    const cols = [first];
    let range = first.max - first.min + 1;
    let next = c + 1;
    while (next < a) {
      const col = columnKeys(d, a, next, n, kinds[next] === 'symbol' ? r : null);
      const span = col.max - col.min + 1;
      if (range * span > 2 ** 32) break;
      cols.push(col);
      range *= span;
      next++;
    }
    let keys = first.keys;
    if (cols.length === 1) {
      const min = first.min;
      if (min !== 0) for (let i = 0; i < n; i++) keys[i] = keys[i]! - min;
    } else {
      keys = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        let w = 0;
        for (const col of cols) w = w * (col.max - col.min + 1) + (col.keys[i]! - col.min);
        keys[i] = w;
      }
    }
    words.push({ keys, range });
    c = next;
  }
  // Least significant word first; the keys of the words still to sort travel with the rows.
  let o: Int32Array = order;
  let carry = words.slice(0, -1).map((w) => w.keys);
  for (let w = words.length - 1; w >= 0; w--) {
    const key = w === words.length - 1 ? words[w]!.keys : carry.pop()!;
    const s = radixPass(o, key, words[w]!.range, carry);
    o = s.order;
    carry = s.carry;
  }
  return o;
}

/** The same order by a stable comparison sort (a number column holds values beyond 32 bits). */
function byComparison(rel: Relation, kinds: readonly Kind[], symbols: SymbolTable, ranks?: SymbolOrder): Int32Array {
  const a = rel.arity;
  const d = rel.data;
  const r = kinds.includes('symbol') ? (ranks ?? symbolOrder(symbols)).rank : null;
  const rows = Array.from({ length: rel.count }, (_, i) => i);
  rows.sort((x, y) => {
    for (let c = 0; c < a; c++) {
      const u = d[x * a + c]!;
      const v = d[y * a + c]!;
      if (u === v) continue;
      if (kinds[c] === 'symbol') return r![u]! - r![v]!;
      return symbols.numbers.cmp(u, v);
    }
    return 0;
  });
  return Int32Array.from(rows);
}

/**
 * A relation's rows in output order as one 32-bit key per row: the key of a row is its columns'
 * digits (a number minus the column's smallest, a symbol's rank minus the smallest rank) in
 * mixed radix, so key order is output order and a row is decoded from its key alone.
 */
export interface PackedRows {
  /** Per column: the smallest value (a number, or a symbol's rank), the digit count and the digit's weight in a key. */
  cols: Array<{ min: number; span: number; weight: number }>;
  /** The row keys in ascending order (no two equal: rows are distinct), or null when `bits` holds them. */
  keys: Uint32Array | null;
  /** Bit `k % 32` of word `k >> 5` set when a row has key `k` (a dense range of keys), or null. */
  bits: Int32Array | null;
}

// packedRows runs once per output in a fresh process: each of its loops is a function of its own,
// so that V8 compiles each when it gets hot (one function of many loops is compiled at its first
// hot loop and thrown away at each later loop it has no type feedback for yet).

/** The least and greatest sort key of column `c` (a symbol's rank, or the number), or null when a value is beyond 32 bits. */
function keyRange(
  d: Int32Array | Float64Array,
  a: number,
  c: number,
  n: number,
  rank: Uint32Array | null,
): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0, p = c; i < n; i++, p += a) {
    const v = d[p]!;
    if ((v | 0) !== v) return null;
    const k = rank ? rank[v]! : v;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return n === 0 ? { min: 0, max: 0 } : { min, max };
}

/** Sets bit `key` of `bits` for every row of two number columns. */
function pairBits(d: Int32Array | Float64Array, n: number, w0: number, m0: number, m1: number, bits: Int32Array): void {
  for (let i = 0, p = 0; i < n; i++, p += 2) {
    const k = (d[p]! - m0) * w0 + (d[p + 1]! - m1);
    bits[k >>> 5]! |= 1 << (k & 31);
  }
}

/** Sets bit `keyOf(i)` of `bits` for every row. */
function rowBits(n: number, keyOf: (i: number) => number, bits: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    bits[k >>> 5]! |= 1 << (k & 31);
  }
}

/** The radix digits of the keys: `passes` digits of `digitBits` bits, pass q's counts at `q * (2 ** digitBits + 1) + 1`. */
interface Digits {
  passes: number;
  digitBits: number;
  mask: number;
  stride: number;
}

/** Writes the keys of two number columns into `keys` and counts their digits into `counts`. */
function pairKeys(
  d: Int32Array | Float64Array,
  n: number,
  w0: number,
  m0: number,
  m1: number,
  keys: Uint32Array,
  counts: Uint32Array,
  g: Digits,
): void {
  const { passes, digitBits, mask, stride } = g;
  for (let i = 0, p = 0; i < n; i++, p += 2) {
    const k = (d[p]! - m0) * w0 + (d[p + 1]! - m1);
    keys[i] = k;
    for (let q = 0, at = 1; q < passes; q++, at += stride) counts[at + ((k >>> (q * digitBits)) & mask)]!++;
  }
}

/** Writes `keyOf(i)` of every row into `keys` and counts their digits into `counts`. */
function rowKeys(n: number, keyOf: (i: number) => number, keys: Uint32Array, counts: Uint32Array, g: Digits): void {
  const { passes, digitBits, mask, stride } = g;
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    keys[i] = k;
    for (let q = 0, at = 1; q < passes; q++, at += stride) counts[at + ((k >>> (q * digitBits)) & mask)]!++;
  }
}

/** One stable radix pass: `from`'s keys into `to` by their digit at `shift`, positions from `counts` (prefix sums) at `at`. */
function scatter(from: Uint32Array, to: Uint32Array, counts: Uint32Array, at: number, shift: number, mask: number): void {
  for (let i = 0; i < from.length; i++) {
    const x = from[i]!;
    to[counts[at + ((x >>> shift) & mask)]!++] = x;
  }
}

/**
 * The rows of `rel` as sorted keys (PackedRows), or null when they do not fit one 32-bit key
 * (the columns' ranges multiply past 2^32, or a number beyond 32 bits): use sortedRowOrder then.
 * `ranks` is needed when a column is a symbol. Memory: a bitmap of the key range when the keys
 * are dense (at most 32 per row), else two key arrays. `arena`: where the arrays come from (pages
 * an evaluation already wrote; give `keys` and `bits` back with `release` when done), else new ones.
 */
export function packedRows(
  rel: Relation,
  kinds: readonly Kind[],
  ranks: SymbolOrder | null,
  arena: Arena | null = null,
): PackedRows | null {
  const n = rel.count;
  const a = rel.arity;
  const d = rel.data;
  if (a === 0) return null;
  const cols: PackedRows['cols'] = [];
  let range = 1;
  for (let c = 0; c < a; c++) {
    const sym = kinds[c] === 'symbol';
    if (sym && !ranks) return null;
    const r = keyRange(d, a, c, n, sym ? ranks!.rank : null);
    if (r === null) return null;
    const span = r.max - r.min + 1;
    range *= span;
    if (range > 2 ** 32) return null;
    cols.push({ min: r.min, span, weight: 0 });
  }
  let w = 1;
  for (let c = a - 1; c >= 0; c--) {
    cols[c]!.weight = w;
    w *= cols[c]!.span;
  }
  const rank = ranks ? ranks.rank : null;
  const sym = kinds.map((k) => k === 'symbol');
  const pair = a === 2 && !sym[0] && !sym[1];
  // The key of row i (columns of 32-bit values, at most 2^32 keys).
  const keyOf = (i: number): number => {
    let k = 0;
    const b = i * a;
    for (let c = 0; c < a; c++) {
      const col = cols[c]!;
      const v = d[b + c]!;
      k += ((sym[c] ? rank![v]! : v) - col.min) * col.weight;
    }
    return k;
  };
  if (range <= 32 * n) {
    const bits = arena ? arena.int32(Math.ceil(range / 32)) : new Int32Array(Math.ceil(range / 32));
    if (pair) pairBits(d, n, cols[0]!.weight, cols[0]!.min, cols[1]!.min, bits);
    else rowBits(n, keyOf, bits);
    return { cols, keys: null, bits };
  }
  let keys: Uint32Array = arena ? arena.uint32(n, false, true) : new Uint32Array(n);
  const bitsNeeded = 32 - Math.clz32(range - 1);
  const passes = Math.ceil(bitsNeeded / 16);
  const digitBits = Math.ceil(bitsNeeded / passes);
  const buckets = 1 << digitBits;
  const g: Digits = { passes, digitBits, mask: buckets - 1, stride: buckets + 1 };
  // The keys and, in the same pass, the digit counts of every radix pass.
  const counts = new Uint32Array(passes * g.stride);
  if (pair) pairKeys(d, n, cols[0]!.weight, cols[0]!.min, cols[1]!.min, keys, counts, g);
  else rowKeys(n, keyOf, keys, counts, g);
  for (let q = 0, at = 0; q < passes; q++, at += g.stride) for (let b = 0; b < buckets; b++) counts[at + b + 1]! += counts[at + b]!;
  let tmp: Uint32Array = arena ? arena.uint32(n, false, true) : new Uint32Array(n);
  for (let q = 0; q < passes; q++) {
    scatter(keys, tmp, counts, q * g.stride, q * digitBits, g.mask);
    const t = keys;
    keys = tmp;
    tmp = t;
  }
  arena?.release(tmp);
  return { cols, keys, bits: null };
}
