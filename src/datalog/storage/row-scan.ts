// Scans over row-major rows shared by a relation and its indexes: value ranges, increasing and
// distinct columns, and the in-place removal of repeated rows.
import type { Arena } from './arena.js';
import { hashFinish, hashValue } from './hash.js';

/** An empty array, shared by what holds nothing yet. */
export const EMPTY = new Int32Array(0);

/** The smallest power of two (at least 16) that is at least `n`. */
export function pow2(n: number): number {
  let size = 16;
  while (size < n) size *= 2;
  return size;
}

/** A dense key table may have at most this many slots per indexed row (plus DENSE_SLACK). */
export const DENSE_SLOTS_PER_ROW = 4;
export const DENSE_SLACK = 1024;

/**
 * The least and greatest value of column `c` over the first `n` rows of `d` (arity `a`) when
 * they are all 32-bit integers spanning at most `limit` values; null otherwise (the scan stops
 * as soon as the range is too wide).
 */
export function compactIntRange(
  d: Int32Array | Float64Array,
  c: number,
  a: number,
  n: number,
  limit: number,
): { lo: number; hi: number } | null {
  let lo = 2147483647;
  let hi = -2147483648;
  for (let r = 0, b = c; r < n; r++, b += a) {
    const v = d[b]!;
    if ((v | 0) !== v) return null;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (hi - lo >= limit) return null; // too sparse already
  }
  return hi - lo + 1 > limit ? null : { lo, hi };
}

/** True when column `c` of the first `n` rows of `d` (arity `a`) strictly increases down the rows. */
export function increasing(d: Int32Array | Float64Array, c: number, a: number, n: number): boolean {
  let prev = d[c]!;
  for (let i = c + a, end = n * a; i < end; i += a) {
    const v = d[i]!;
    if (!(v > prev)) return false;
    prev = v;
  }
  return true;
}

/**
 * True when some column of the first `n` rows of `d` holds distinct values (so the rows are
 * distinct): strictly increasing down the rows, or distinct 32-bit integers over a range of at
 * most about four times `n` (checked with a table of that range).
 */
export function distinctColumn(d: Int32Array | Float64Array, n: number, a: number, arena: Arena | null): boolean {
  for (let c = 0; c < a; c++) {
    let i = c + a;
    const end = n * a;
    let prev = d[c]!;
    for (; i < end; i += a) {
      const v = d[i]!;
      if (!(v > prev)) break;
      prev = v;
    }
    if (i >= end) return true;
  }
  const limit = DENSE_SLOTS_PER_ROW * n + DENSE_SLACK;
  for (let c = 0; c < a; c++) {
    const range = compactIntRange(d, c, a, n, limit);
    if (range === null) continue;
    const { lo, hi } = range;
    const seen = arena ? arena.uint8(hi - lo + 1) : new Uint8Array(hi - lo + 1);
    let distinct = true;
    for (let i = c; i < n * a; i += a) {
      const slot = d[i]! - lo;
      if (seen[slot] !== 0) {
        distinct = false;
        break;
      }
      seen[slot] = 1;
    }
    arena?.release(seen);
    if (distinct) return true;
  }
  return false;
}

/**
 * Drops the rows of `d` (arity `a`, `n` rows) equal to an earlier row, keeping the order of the
 * others; returns how many rows remain. `arena`: where the scratch set comes from.
 */
export function dedupRows(d: Int32Array | Float64Array, n: number, a: number, arena: Arena | null): number {
  const size = pow2(2 * n);
  const set = arena ? arena.int32(size) : new Int32Array(size);
  const mask = size - 1;
  let w = 0;
  for (let r = 0; r < n; r++) {
    const sb = r * a;
    let hv = 0;
    for (let i = 0; i < a; i++) hv = hashValue(hv, d[sb + i]!);
    let slot = hashFinish(hv) & mask;
    let dup = false;
    for (;;) {
      const e = set[slot]!;
      if (e === 0) break;
      const b = (e - 1) * a;
      let i = 0;
      while (i < a && d[b + i] === d[sb + i]) i++;
      if (i === a) {
        dup = true;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (dup) continue;
    if (w !== r) d.copyWithin(w * a, sb, sb + a);
    set[slot] = w + 1;
    w++;
  }
  arena?.release(set);
  return w;
}
