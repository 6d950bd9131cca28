// Compact tuple storage: row-major rows of symbol ids and encoded 64-bit numbers (int64.ts) in an
// Int32Array while every value fits 32 bits, widened once to a Float64Array when one does not; an
// open-addressing set of row numbers for deduplication, or a bitmap of the tuples while the
// columns' value ranges are small (built when first needed — a membership lookup on a complete
// relation builds the bitmap when it can — and dropped by `compact` once the relation is
// complete); the derivation height of the rows as a step function
// (rows are appended in order of height, so a relation has one step per iteration that added to
// it, not one number per row); and lazily built hash indexes per bound-column set.

import type { Arena } from './arena.js';
import { hashFinish, hashStep, hashValue } from './hash.js';
import { RowLimit } from './row-limit.js';

const EMPTY = new Int32Array(0);

/** The smallest power of two (at least 16) that is at least `n`. */
function pow2(n: number): number {
  let size = 16;
  while (size < n) size *= 2;
  return size;
}

/** The slots of a dedup set for `n` rows: the least power of two at least 4/3 of them (at most three quarters full). */
function setSlots(n: number): number {
  return pow2(Math.ceil((4 * n) / 3) + 1);
}

/** An index is first built dense when it has at least this many rows (see `Index.tryDense`). */
const DENSE_MIN_ROWS = 256;

/** A dense key table may have at most this many slots per indexed row (plus DENSE_SLACK). */
const DENSE_SLOTS_PER_ROW = 4;
const DENSE_SLACK = 1024;

/** A relation of this many rows or more grows its rows by half instead of doubling them. */
const LARGE_ROWS = 1 << 20;

/** A dense table of at most this many slots (256 KB) is built whatever the hashed one would take. */
const DENSE_ANY_SLOTS = 1 << 16;

/**
 * A ranked index (increasing values) may span this many values per indexed row (plus
 * DENSE_SLACK): it costs a quarter of a byte per value of its range, at most 4 bytes a row here,
 * below a hashed table's 5.3 to 10.7 (statement ids among all node ids: 6.5 values a row).
 */
const RANKED_SLOTS_PER_ROW = 16;

/** The number of set bits of the 32-bit integer `x`. */
function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * An index of a relation on a list of columns: key → chain of rows (newest first). Hashed, or
 * dense: when one of the columns holds distinct 32-bit integers over a range at most about four times
 * the number of rows (node ids: `expr(e, ...)`, `span(n, ...)`), `table[v - base]` is the one row
 * with value v there, every chain has one row, and the other key columns are compared on lookup;
 * or, for a single key column of 32-bit integers over such a range that repeat (`edge(x, _)` on
 * node numbers), `table[v - base]` is the newest row with value v and `next` chains the others
 * (no hashing, no key compared). One pass over the column builds it, a lookup reads one slot;
 * rows added later that break a condition turn it into the hashed index. A dense column whose
 * values also increase down the rows (ids in the order the facts were emitted) is ranked instead
 * of tabled: a bitmap of the values present and the number of values below each 32-bit word of it
 * (1/16 of the table's bytes): the row of value v is the number of values below it — over a range
 * of up to about sixteen times the number of rows (statement ids among all node ids). A hashed index
 * keeps no `next` chains while every key has one row (ids again: 4 bytes a row saved), its table
 * then tagged and up to three quarters full (see `untag`), and starts chains at the first repeat.
 */
export class Index {
  private table: Int32Array;
  private mask: number;
  private keys = 0;
  /**
   * next[row] = the previous row with the same key, or -1 (sized when rows are indexed); not kept
   * in dense mode of distinct values, where every chain is one row (see `single`, `nextRow`).
   */
  next: Int32Array;
  private indexed = 0;
  /** Dense mode: the position in `cols` of the column whose value - `base` is the table slot; -1 when hashed. */
  private dense = -1;
  private base = 0;
  /** True once the dense build was considered (it is tried once, on the first build). */
  private triedDense = false;
  /**
   * True once two indexed rows share a key and `next` is kept: dense mode with chains (a single
   * key column whose values repeat), or hashed mode after the first repeat (its table untagged).
   */
  private chained = false;
  /**
   * Dense mode, ranked: `table` is the bitmap of the values present (bit v - base), `ranks[w]` the
   * number of values below word w (kept up to the word of `last`), `last` the greatest value.
   */
  private ranked = false;
  private ranks: Int32Array = EMPTY;
  private last = 0;

  constructor(
    private readonly rel: Relation,
    readonly cols: readonly number[],
  ) {
    this.table = new Int32Array(16);
    this.mask = 15;
    this.next = EMPTY;
  }

  /** Bytes held by this index's arrays. */
  get bytes(): number {
    return this.table.byteLength + this.next.byteLength + this.ranks.byteLength;
  }

  /** Indexes every row below `upto` that is not indexed yet. */
  ensure(upto: number): void {
    if (upto <= this.indexed) return;
    if (!this.triedDense && this.indexed === 0) {
      this.triedDense = true;
      if (upto >= DENSE_MIN_ROWS && this.tryDense(upto)) return;
    }
    if (this.dense >= 0) {
      if (this.extendDense(upto)) return;
      this.toHashed();
    }
    if (this.chained) this.sizeNext(upto);
    const rel = this.rel;
    const d = rel.data;
    const a = rel.arity;
    const cols = this.cols;
    const nc = cols.length;
    let next = this.next;
    for (let r = this.indexed; r < upto; r++) {
      // At most three quarters full while tagged (a probe rarely reads a row), half once chained.
      if (this.chained ? (this.keys + 1) * 2 > this.table.length : (this.keys + 1) * 4 > this.table.length * 3) this.grow(r, upto);
      const base = r * a;
      let h = 0;
      for (let i = 0; i < nc; i++) h = hashValue(h, d[base + cols[i]!]!);
      h = hashFinish(h);
      const table = this.table;
      const mask = this.mask;
      const tagged = !this.chained;
      const tag = h & ~mask;
      let slot = h & mask;
      for (;;) {
        const e = table[slot]!;
        if (e === 0) {
          table[slot] = tagged ? tag | (r + 1) : r + 1;
          if (!tagged) next[r] = -1;
          this.keys++;
          break;
        }
        if (tagged && (e & ~mask) !== tag) {
          slot = (slot + 1) & mask;
          continue;
        }
        const head = tagged ? e & mask : e;
        const hb = (head - 1) * a;
        let same = true;
        for (let i = 0; i < nc; i++) {
          const c = cols[i]!;
          if (d[hb + c] !== d[base + c]) {
            same = false;
            break;
          }
        }
        if (same) {
          if (!this.chained) {
            // The first repeated key: chains from here on (every row before it had a key of its own).
            this.untag();
            this.sizeNext(upto);
            next = this.next;
            next.fill(-1, 0, r);
          }
          next[r] = head - 1;
          table[slot] = r + 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    this.indexed = upto;
  }

  /** Makes `next` hold at least `upto` rows (its values below the old length kept). */
  private sizeNext(upto: number): void {
    if (this.next.length >= upto) return;
    // The first build is sized exactly (a complete relation); later ones double (a growing one).
    const n = this.next.length === 0 ? upto : Math.max(upto, this.next.length * 2);
    const pool = this.rel.pool;
    // In place when the arena has the room (see Relation.growRows), else a copy.
    const grown = pool && this.next.length > 0 ? pool.grow(this.next, n) : null;
    if (grown) this.next = grown;
    else {
      const bigger = pool ? pool.int32(n, false) : new Int32Array(n);
      bigger.set(this.next);
      pool?.retire(this.next);
      this.next = bigger;
    }
  }

  /**
   * Leaves the tagged table (no chains, at most three quarters full: an entry is the row + 1 in the
   * bits of the mask and the key's hash above them, so that a probe reads a row only when those
   * bits agree) for chains: entries become plain row + 1 (a chain's head may be any row).
   */
  private untag(): void {
    const table = this.table;
    const mask = this.mask;
    for (let s = 0; s < table.length; s++) table[s] = table[s]! & mask;
    this.chained = true;
  }

  /**
   * Builds the dense table on the first of the key columns whose values on rows below `upto` are
   * distinct 32-bit integers over a range of at most DENSE_SLOTS_PER_ROW slots a row — or, for a
   * single key column of such a range whose values repeat, the dense table with chains; false (and
   * nothing built) when none is.
   */
  private tryDense(upto: number): boolean {
    const rel = this.rel;
    const d = rel.data;
    const a = rel.arity;
    const limit = DENSE_SLOTS_PER_ROW * upto + DENSE_SLACK;
    for (let j = 0; j < this.cols.length; j++) {
      const c = this.cols[j]!;
      const range = compactIntRange(d, c, a, upto, RANKED_SLOTS_PER_ROW * upto + DENSE_SLACK);
      if (range === null) continue;
      const lo = range.lo;
      const size = range.hi - lo + 1;
      const pool = rel.pool;
      if (increasing(d, c, a, upto)) {
        this.buildRanked(d, c, a, upto, lo, size);
        this.dense = j;
        return true;
      }
      // Not over a range wider than the hashed table of distinct keys would be (at most three quarters full).
      if (size > limit || (size > DENSE_ANY_SLOTS && size > pow2(Math.ceil((4 * upto) / 3) + 1))) continue;
      const table = pool ? pool.int32(size) : new Int32Array(size);
      let unique = true;
      for (let r = 0, b = c; r < upto; r++, b += a) {
        const slot = d[b]! - lo;
        if (table[slot] !== 0) {
          unique = false;
          break;
        }
        table[slot] = r + 1;
      }
      if (!unique && this.cols.length === 1) {
        // Chains: the newest row of each value in the table, the older ones through `next`.
        table.fill(0);
        this.sizeNext(upto);
        const next = this.next;
        let keys = 0;
        for (let r = 0, b = c; r < upto; r++, b += a) {
          const slot = d[b]! - lo;
          if (table[slot] === 0) keys++;
          next[r] = table[slot]! - 1;
          table[slot] = r + 1;
        }
        if (size > DENSE_ANY_SLOTS && size > pow2(2 * (keys + 1))) {
          // Few keys over a wide range (`ref(E, B)` on B: 300k bindings over 4M node ids): the
          // hashed table of the keys (at most half full once chained) is smaller; `next` is reused.
          pool?.release(table);
          continue;
        }
        this.chained = true;
      } else if (!unique) {
        pool?.release(table);
        continue;
      }
      pool?.release(this.table);
      this.table = table;
      this.mask = 0;
      this.base = lo;
      this.dense = j;
      this.keys = upto;
      this.indexed = upto;
      return true;
    }
    return false;
  }

  /** Ranked mode over rows below `upto` of column `c`, whose values increase from `lo` over `size` values. */
  private buildRanked(d: Int32Array | Float64Array, c: number, a: number, upto: number, lo: number, size: number): void {
    const pool = this.rel.pool;
    const words = Math.ceil(size / 32);
    const bits = pool ? pool.int32(words) : new Int32Array(words);
    const ranks = pool ? pool.int32(words) : new Int32Array(words);
    let w = -1;
    for (let r = 0, b = c; r < upto; r++, b += a) {
      const slot = d[b]! - lo;
      const sw = slot >>> 5;
      while (w < sw) ranks[++w] = r;
      bits[sw] = bits[sw]! | (1 << (slot & 31));
    }
    pool?.retire(this.table);
    this.table = bits;
    this.ranks = ranks;
    this.ranked = true;
    this.last = lo + size - 1;
    this.mask = 0;
    this.base = lo;
    this.keys = upto;
    this.indexed = upto;
  }

  /** Adds rows `indexed` to `upto` to the ranked bitmap; false when one does not increase (or is too far). */
  private extendRanked(upto: number): boolean {
    const rel = this.rel;
    const d = rel.data;
    const a = rel.arity;
    const c = this.cols[this.dense]!;
    for (let r = this.indexed; r < upto; r++) {
      const v = d[r * a + c]!;
      if ((v | 0) !== v || v <= this.last) return false;
      const slot = v - this.base;
      const sw = slot >>> 5;
      if (sw >= this.table.length) {
        const words = Math.max(sw + 1, this.table.length * 2);
        if (words * 32 > RANKED_SLOTS_PER_ROW * upto + DENSE_SLACK) return false;
        const pool = rel.pool;
        const bits = pool ? pool.int32(words) : new Int32Array(words);
        const ranks = pool ? pool.int32(words) : new Int32Array(words);
        bits.set(this.table);
        ranks.set(this.ranks);
        pool?.retire(this.table);
        pool?.retire(this.ranks);
        this.table = bits;
        this.ranks = ranks;
      }
      // Words past the last value's get the count of the rows before this one.
      for (let w = ((this.last - this.base) >>> 5) + 1; w <= sw; w++) this.ranks[w] = r;
      this.table[sw] = this.table[sw]! | (1 << (slot & 31));
      this.last = v;
      this.keys = r + 1;
      this.indexed = r + 1;
    }
    return true;
  }

  /** Leaves ranked mode for the dense table over the rows indexed so far (a row came out of order). */
  private rankedToTable(): void {
    const rel = this.rel;
    const d = rel.data;
    const a = rel.arity;
    const c = this.cols[this.dense]!;
    const size = this.table.length * 32;
    const pool = rel.pool;
    const table = pool ? pool.int32(size) : new Int32Array(size);
    for (let r = 0, b = c; r < this.indexed; r++, b += a) table[d[b]! - this.base] = r + 1;
    pool?.retire(this.table);
    pool?.retire(this.ranks);
    this.table = table;
    this.ranks = EMPTY;
    this.ranked = false;
  }

  /** Adds rows `indexed` to `upto` to the dense table; false when one breaks it (the table is then stale). */
  private extendDense(upto: number): boolean {
    if (this.ranked) {
      if (this.extendRanked(upto)) return true;
      // A table over a range wider than a dense table may span: hashed instead.
      if (this.table.length * 32 > DENSE_SLOTS_PER_ROW * upto + DENSE_SLACK) return false;
      this.rankedToTable();
    }
    const rel = this.rel;
    const d = rel.data;
    const a = rel.arity;
    const c = this.cols[this.dense]!;
    let table = this.table;
    for (let r = this.indexed; r < upto; r++) {
      const v = d[r * a + c]!;
      if ((v | 0) !== v || v < this.base) return false;
      const slot = v - this.base;
      if (slot >= table.length) {
        const size = Math.max(slot + 1, table.length * 2);
        if (size > DENSE_SLOTS_PER_ROW * upto + DENSE_SLACK) return false;
        const pool = rel.pool;
        const bigger = pool ? pool.int32(size) : new Int32Array(size);
        bigger.set(table);
        pool?.release(table);
        this.table = table = bigger;
      }
      if (this.chained) {
        if (r >= this.next.length) this.sizeNext(upto);
        this.next[r] = table[slot]! - 1;
      } else if (table[slot] !== 0) return false;
      table[slot] = r + 1;
    }
    this.keys = upto;
    this.indexed = upto;
    return true;
  }

  /** Leaves dense mode: the index is rebuilt hashed from row 0 by `ensure`. */
  private toHashed(): void {
    this.rel.pool?.release(this.table);
    this.rel.pool?.release(this.ranks);
    this.ranks = EMPTY;
    this.ranked = false;
    this.rel.pool?.retire(this.next); // read by running joins
    this.next = EMPTY;
    this.table = new Int32Array(16);
    this.mask = 15;
    this.keys = 0;
    this.indexed = 0;
    this.dense = -1;
    this.chained = false;
  }

  /** Dense mode: the row whose dense column is `v` and whose other key columns equal `key`'s (`k0`, `k1` for up to two columns), or -1. */
  private denseFind(v: number, k0: number, k1: number, key: ArrayLike<number> | null): number {
    const slot = v - this.base;
    let r: number;
    if (this.ranked) {
      if ((v | 0) !== v || !(slot >= 0 && v <= this.last)) return -1;
      const w = slot >>> 5;
      const word = this.table[w]!;
      const bit = slot & 31;
      if ((word & (1 << bit)) === 0) return -1;
      r = this.ranks[w]! + popcount32(word & ~(-1 << bit));
    } else {
      if (!(slot >= 0 && slot < this.table.length)) return -1;
      r = this.table[slot]! - 1;
      if (r < 0) return -1;
    }
    const d = this.rel.data;
    const b = r * this.rel.arity;
    const cols = this.cols;
    for (let i = 0; i < cols.length; i++) {
      if (i === this.dense) continue;
      const want = key ? key[i]! : i === 0 ? k0 : k1;
      if (d[b + cols[i]!] !== want) return -1;
    }
    return r;
  }

  /**
   * Doubles the table — or, once a thousand rows have been seen, sizes it for the number of keys
   * the rows up to `upto` are projected to have (one copy instead of a doubling per power of two).
   */
  private grow(r: number, upto: number): void {
    const old = this.table;
    const oldMask = this.mask;
    const tagged = !this.chained;
    let size = old.length * 2;
    if (r >= 1024) {
      const keys = Math.ceil((this.keys * upto) / r);
      size = Math.max(size, pow2(tagged ? Math.ceil((4 * keys) / 3) + 2 : keys * 2 + 2));
    }
    const pool = this.rel.pool;
    const table = pool ? pool.int32(size) : new Int32Array(size);
    const mask = size - 1;
    const d = this.rel.data;
    const a = this.rel.arity;
    const cols = this.cols;
    for (let s = 0; s < old.length; s++) {
      const e = old[s]!;
      if (e === 0) continue;
      const head = tagged ? e & oldMask : e;
      const base = (head - 1) * a;
      let h = 0;
      for (let i = 0; i < cols.length; i++) h = hashValue(h, d[base + cols[i]!]!);
      h = hashFinish(h);
      let slot = h & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = tagged ? (h & ~mask) | head : head;
    }
    pool?.release(old);
    this.table = table;
    this.mask = mask;
  }

  /** True when every key has at most one row (dense of distinct values, or hashed with no repeated key): `next` is not kept (a chain ends after its first row). */
  get single(): boolean {
    return !this.chained;
  }

  /** The row after `r` in its key's chain (older), or -1. */
  nextRow(r: number): number {
    return this.chained ? this.next[r]! : -1;
  }

  /** Gives the index's arrays back to the pool of the evaluation, if any (the index is not used after). */
  retire(): void {
    const pool = this.rel.pool;
    if (!pool) return;
    pool.release(this.table); // read by this index's methods only
    pool.release(this.ranks);
    pool.retire(this.next); // read by running joins
  }

  /** Newest row whose single key column equals `k0`, or -1. */
  find1(k0: number): number {
    if (this.dense >= 0) return this.denseFind(k0, k0, 0, null);
    const table = this.table;
    const mask = this.mask;
    const d = this.rel.data;
    const a = this.rel.arity;
    const c0 = this.cols[0]!;
    const h = hashFinish(hashValue(0, k0));
    let slot = h & mask;
    if (!this.chained) {
      const tag = h & ~mask;
      for (;;) {
        const e = table[slot]!;
        if (e === 0) return -1;
        if ((e & ~mask) === tag && d[((e & mask) - 1) * a + c0] === k0) return (e & mask) - 1;
        slot = (slot + 1) & mask;
      }
    }
    for (;;) {
      const head = table[slot]!;
      if (head === 0) return -1;
      if (d[(head - 1) * a + c0] === k0) return head - 1;
      slot = (slot + 1) & mask;
    }
  }

  /** Newest row whose two key columns equal `k0, k1`, or -1. */
  find2(k0: number, k1: number): number {
    if (this.dense >= 0) return this.denseFind(this.dense === 0 ? k0 : k1, k0, k1, null);
    const table = this.table;
    const mask = this.mask;
    const d = this.rel.data;
    const a = this.rel.arity;
    const c0 = this.cols[0]!;
    const c1 = this.cols[1]!;
    const h = hashFinish(hashValue(hashValue(0, k0), k1));
    let slot = h & mask;
    if (!this.chained) {
      const tag = h & ~mask;
      for (;;) {
        const e = table[slot]!;
        if (e === 0) return -1;
        if ((e & ~mask) === tag) {
          const b = ((e & mask) - 1) * a;
          if (d[b + c0] === k0 && d[b + c1] === k1) return (e & mask) - 1;
        }
        slot = (slot + 1) & mask;
      }
    }
    for (;;) {
      const head = table[slot]!;
      if (head === 0) return -1;
      const b = (head - 1) * a;
      if (d[b + c0] === k0 && d[b + c1] === k1) return head - 1;
      slot = (slot + 1) & mask;
    }
  }

  /** Newest row whose key columns equal `key` (one value per key column), or -1. */
  findN(key: ArrayLike<number>): number {
    if (this.dense >= 0) return this.denseFind(key[this.dense]!, 0, 0, key);
    const table = this.table;
    const mask = this.mask;
    const d = this.rel.data;
    const a = this.rel.arity;
    const cols = this.cols;
    const nc = cols.length;
    let h = 0;
    for (let i = 0; i < nc; i++) h = hashValue(h, key[i]!);
    h = hashFinish(h);
    let slot = h & mask;
    const tagged = !this.chained;
    const tag = h & ~mask;
    for (;;) {
      const e = table[slot]!;
      if (e === 0) return -1;
      if (tagged && (e & ~mask) !== tag) {
        slot = (slot + 1) & mask;
        continue;
      }
      const head = tagged ? e & mask : e;
      const b = (head - 1) * a;
      let same = true;
      for (let i = 0; i < nc; i++) {
        if (d[b + cols[i]!] !== key[i]) {
          same = false;
          break;
        }
      }
      if (same) return head - 1;
      slot = (slot + 1) & mask;
    }
  }
}

/** Bitmaps are at most 2^28 bits (32 MB). */
const BITMAP_MAX_BITS = 2 ** 28;

/**
 * How many bits a relation of `n` rows may spend on a dedup bitmap: no more than its set would
 * (8 bytes a row right after growing), or 64 K bits (8 KB) for a relation still small, and at most
 * BITMAP_MAX_BITS. (A relation too small for its range now is tried again each time its set grows.)
 */
function bitmapBudget(n: number): number {
  return Math.min(BITMAP_MAX_BITS, Math.max(64 * n, 2 ** 16));
}

/**
 * The least and greatest value of column `c` over the first `n` rows of `d` (arity `a`) when
 * they are all 32-bit integers spanning at most `limit` values; null otherwise (the scan stops
 * as soon as the range is too wide).
 */
function compactIntRange(d: Int32Array | Float64Array, c: number, a: number, n: number, limit: number): { lo: number; hi: number } | null {
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
function increasing(d: Int32Array | Float64Array, c: number, a: number, n: number): boolean {
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
function distinctColumn(d: Int32Array | Float64Array, n: number, a: number, arena: Arena | null): boolean {
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

/** A set of tuples of one arity, stored as integer rows in insertion order. */
export class Relation {
  /** The rows: an Int32Array while every value fits 32 bits (most relations), else a Float64Array. */
  data: Int32Array | Float64Array;
  /** True once `data` is a Float64Array. */
  private wide = false;
  count = 0;
  /** At most this many rows (`--max-tuples`): adding past it throws RowLimit. */
  limit = Infinity;
  /**
   * Open-addressing table (linear probing, at most three quarters full: on this kind of machine a
   * fresh page costs more than a few more probes within a cache line) of one 32-bit entry per row: row + 1
   * in the bits of the slot mask (0 marks an empty slot; a row number is below the number of slots), the
   * row's hash above them — a probe reads the row only when those hash bits agree (a new tuple
   * almost never reads one), in 4 bytes a slot. Null until a lookup needs it.
   */
  private set: Int32Array | null;
  private mask: number;
  private capacity: number;
  /**
   * Dedup as a bitmap instead of the set (null when the set is used): while every column holds
   * 32-bit integers over a range whose product is small (`bitmapBudget`), tuple t is present iff bit
   * Σ (t[i] - bitLo[i]) · Π_{j>i} bitSpan[j] is set — no hashing, no probing, no growth by
   * doubling (a closure over 2,000 nodes: 512 KB of bits for 2 M rows instead of a 32 MB set).
   * Chosen where the set would grow; a value outside the ranges widens them (or goes back to the set).
   */
  private bits: Int32Array | null = null;
  private bitLo: Int32Array = EMPTY;
  private bitSpan: Int32Array = EMPTY;
  /** The least bitmap budget the rows' ranges can fit (known from a failed `toBitmap`; 0: not known). */
  private bitmapNeed = 0;
  /** `add2`'s tuple when it goes through `add` (made on first use). */
  private pair: Float64Array | null = null;
  private readonly indexes = new Map<string, Index>();
  /** Heights as steps: from row stepRow[i] on (up to the next step) the height is stepHeight[i]; 0 before the first. */
  private stepRow: Int32Array = EMPTY;
  private stepHeight: Int32Array = EMPTY;
  private steps = 0;
  private lastHeight = 0;
  /**
   * Where an evaluation's arrays come from and go back to while it runs (see arena.ts); null
   * outside evaluation. The dedup set, the bitmap and an index's key table are read by this
   * file's methods alone: a replaced one is released at once (its pages reused by the next array);
   * the rows and an index's chains, which a running join reads, are retired.
   */
  pool: Arena | null = null;

  constructor(
    readonly arity: number,
    initialCapacity = 16,
  ) {
    this.capacity = Math.max(4, initialCapacity);
    this.data = arity === 0 ? EMPTY : new Int32Array(this.capacity * arity);
    const size = pow2(this.capacity * 2);
    this.set = new Int32Array(size);
    this.mask = size - 1;
  }

  private hashOf(t: ArrayLike<number>): number {
    let h = 0;
    for (let i = 0; i < this.arity; i++) h = hashValue(h, t[i]!);
    return hashFinish(h);
  }

  private hashOfRow(d: Int32Array | Float64Array, base: number): number {
    let h = 0;
    for (let i = 0; i < this.arity; i++) h = hashValue(h, d[base + i]!);
    return hashFinish(h);
  }

  /** The dedup set, built from the rows when it was dropped (or never needed). */
  private ensureSet(): Int32Array {
    if (this.set) return this.set;
    this.rehash(setSlots(this.count + 1));
    return this.set!;
  }

  /** Row index of tuple `t`, or -1 when absent. */
  find(t: ArrayLike<number>): number {
    if (this.bits !== null) {
      if (!this.hasBit(t)) return -1;
      this.toSet();
    }
    const a = this.arity;
    const d = this.data;
    const set = this.ensureSet();
    const mask = this.mask;
    const h = this.hashOf(t);
    const tag = h & ~mask;
    let slot = h & mask;
    for (;;) {
      const e = set[slot]!;
      if (e === 0) return -1;
      if ((e & ~mask) === tag) {
        const b = ((e & mask) - 1) * a;
        let i = 0;
        while (i < a && d[b + i] === t[i]) i++;
        if (i === a) return (e & mask) - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * True when tuple `t` is present. A relation with neither set nor bitmap (a complete one) gets
   * the bitmap when its ranges allow (a few bits a row instead of the set's 5 to 11 bytes), else the set.
   */
  has(t: ArrayLike<number>): boolean {
    if (this.bits === null && this.set === null) this.toBitmap(0);
    return this.bits !== null ? this.hasBit(t) : this.find(t) !== -1;
  }

  /** Bitmap mode: whether `t`'s bit is set (false when a value is outside the ranges). */
  private hasBit(t: ArrayLike<number>): boolean {
    const lo = this.bitLo;
    const span = this.bitSpan;
    let at = 0;
    for (let i = 0; i < this.arity; i++) {
      const v = t[i]!;
      const off = v - lo[i]!;
      if ((v | 0) !== v || off < 0 || off >= span[i]!) return false;
      at = at * span[i]! + off;
    }
    return (this.bits![at >>> 5]! & (1 << (at & 31))) !== 0;
  }

  /** Adds tuple `t` (first `arity` values) with derivation height `h`; true when it was new. */
  add(t: ArrayLike<number>, height: number): boolean {
    if (this.bits !== null) return this.addBit(t, height);
    const a = this.arity;
    let d = this.data;
    const set = this.ensureSet();
    const mask = this.mask;
    const h = this.hashOf(t);
    const tag = h & ~mask;
    let slot = h & mask;
    for (;;) {
      const e = set[slot]!;
      if (e === 0) break;
      if ((e & ~mask) === tag) {
        const b = ((e & mask) - 1) * a;
        let i = 0;
        while (i < a && d[b + i] === t[i]) i++;
        if (i === a) return false;
      }
      slot = (slot + 1) & mask;
    }
    const r = this.freeRow();
    d = this.data;
    if (!this.wide) {
      for (let i = 0; i < a; i++) {
        const v = t[i]!;
        if ((v | 0) !== v) {
          this.widen();
          d = this.data;
          break;
        }
      }
    }
    const base = r * a;
    for (let i = 0; i < a; i++) d[base + i] = t[i]!;
    this.recordRow(set, slot, tag, r, height);
    return true;
  }

  /** Row `r` (its values written) becomes a row: its height, its set entry at `slot`; the set grows (or becomes the bitmap) past three quarters full. */
  private recordRow(set: Int32Array, slot: number, tag: number, r: number, height: number): void {
    if (height !== this.lastHeight) this.step(r, height);
    set[slot] = tag | (r + 1);
    this.count = r + 1;
    if (this.count * 4 > set.length * 3 && !this.toBitmap(0)) this.rehash(2 * set.length);
  }

  /** The number of the next row, with room for it (RowLimit past `limit`). */
  private freeRow(): number {
    const r = this.count;
    if (r >= this.limit) throw new RowLimit();
    if (r === this.capacity) this.growRows();
    return r;
  }

  /**
   * `add` of the tuple (v0, v1) to a relation of arity 2 without a tuple array (what a compiled join
   * calls for a head of two columns): the same set, rows and heights as `add`.
   */
  add2(v0: number, v1: number, height: number): boolean {
    if (this.bits !== null || (v0 | 0) !== v0 || (v1 | 0) !== v1) {
      const t = (this.pair ??= new Float64Array(2));
      t[0] = v0;
      t[1] = v1;
      return this.add(t, height);
    }
    let d = this.data;
    const set = this.ensureSet();
    const mask = this.mask;
    const h = hashFinish(hashStep(hashStep(0, v0), v1)); // hashOf of two 32-bit values
    const tag = h & ~mask;
    let slot = h & mask;
    for (;;) {
      const e = set[slot]!;
      if (e === 0) break;
      if ((e & ~mask) === tag) {
        const b = ((e & mask) - 1) * 2;
        if (d[b] === v0 && d[b + 1] === v1) return false;
      }
      slot = (slot + 1) & mask;
    }
    const r = this.freeRow();
    d = this.data;
    d[2 * r] = v0;
    d[2 * r + 1] = v1;
    this.recordRow(set, slot, tag, r, height);
    return true;
  }

  /** Bitmap mode's `add`: the tuple's bit decides; a value outside the ranges widens them first. */
  private addBit(t: ArrayLike<number>, height: number): boolean {
    const a = this.arity;
    const bits = this.bits!;
    const lo = this.bitLo;
    const span = this.bitSpan;
    let at = 0;
    for (let i = 0; i < a; i++) {
      const v = t[i]!;
      const off = v - lo[i]!;
      if ((v | 0) !== v || off < 0 || off >= span[i]!) {
        // Outside the ranges: widen them (the bitmap rebuilt) or go back to the set, then add.
        if (!this.toBitmap(1, t)) {
          this.bits = null;
          this.pool?.release(bits);
          this.rehash(setSlots(this.count + 1));
        }
        return this.add(t, height);
      }
      at = at * span[i]! + off;
    }
    const w = at >>> 5;
    const bit = 1 << (at & 31);
    const word = bits[w]!;
    if ((word & bit) !== 0) return false;
    const r = this.count;
    if (r >= this.limit) throw new RowLimit();
    if (r === this.capacity) this.growRows();
    const d = this.data;
    const base = r * a;
    for (let i = 0; i < a; i++) d[base + i] = t[i]!;
    if (height !== this.lastHeight) this.step(r, height);
    bits[w] = word | bit;
    this.count = r + 1;
    return true;
  }

  /**
   * Switches dedup to a bitmap over the ranges of the rows' columns (and of `extra`, a tuple about
   * to be added) when they are all 32-bit integers whose ranges' product fits `bitmapBudget`;
   * `slack` (1 when widening) leaves each widened range twice its old span, so that values
   * arriving in order rebuild the bitmap O(log range) times. False (nothing changed) otherwise.
   */
  private toBitmap(slack: number, extra?: ArrayLike<number>): boolean {
    const a = this.arity;
    const n = this.count;
    if (a === 0) return false;
    const d = this.data;
    const budget = bitmapBudget(n);
    const widen = slack > 0 && this.bits !== null;
    // Ranges only grow: a product known to exceed this budget is not scanned for again until the budget reaches it.
    const record = !widen && !extra;
    if (record && budget < this.bitmapNeed) return false;
    const lo = new Int32Array(a);
    const span = new Int32Array(a);
    let product = 1;
    for (let c = 0; c < a; c++) {
      let l: number;
      let h: number;
      if (widen) {
        // The rows lie in the old ranges.
        l = this.bitLo[c]!;
        h = l + this.bitSpan[c]! - 1;
      } else {
        const range = compactIntRange(d, c, a, n, budget);
        if (range === null) {
          if (record) this.bitmapNeed = Math.max(this.bitmapNeed, product * (budget + 1));
          return false;
        }
        l = range.lo;
        h = range.hi;
      }
      const oldLo = l;
      const oldSpan = h - l + 1;
      if (extra) {
        const v = extra[c]!;
        if ((v | 0) !== v) return false;
        if (v < l) l = v;
        if (v > h) h = v;
      }
      let s = h - l + 1;
      if (widen && s > oldSpan) {
        // Widened on the side the new value fell: twice the old span, when the budget allows.
        s = Math.max(s, 2 * oldSpan);
        if (l < oldLo) l = h - s + 1;
      }
      if (s <= 0 || l < -2147483648) return false;
      product *= s;
      if (product > budget) {
        if (record) this.bitmapNeed = Math.max(this.bitmapNeed, product);
        return false;
      }
      lo[c] = l;
      span[c] = s;
    }
    const words = Math.ceil(product / 32);
    const bits = this.pool ? this.pool.int32(words) : new Int32Array(words);
    const old = this.bits;
    let same = widen && old !== null;
    for (let c = 0; same && c < a; c++) same = lo[c] === this.bitLo[c] && (c === 0 || span[c] === this.bitSpan[c]);
    if (same) {
      // Only the first column's range grew upwards: every row keeps its bit.
      bits.set(old!);
    } else {
      for (let r = 0, b = 0; r < n; r++, b += a) {
        let at = 0;
        for (let c = 0; c < a; c++) at = at * span[c]! + (d[b + c]! - lo[c]!);
        bits[at >>> 5] = bits[at >>> 5]! | (1 << (at & 31));
      }
    }
    if (old) this.pool?.release(old);
    if (this.set) this.pool?.release(this.set);
    this.set = null;
    this.bits = bits;
    this.bitLo = lo;
    this.bitSpan = span;
    return true;
  }

  /** Leaves bitmap mode (a lookup needs row numbers): the set is built from the rows. */
  private toSet(): void {
    if (this.bits === null) return;
    this.pool?.release(this.bits);
    this.bits = null;
    this.rehash(setSlots(this.count + 1));
  }

  /** Starts a new height step at row `r`. */
  private step(r: number, height: number): void {
    if (this.steps === this.stepRow.length) {
      const n = Math.max(4, this.steps * 2);
      const rows = new Int32Array(n);
      const hs = new Int32Array(n);
      rows.set(this.stepRow);
      hs.set(this.stepHeight);
      this.stepRow = rows;
      this.stepHeight = hs;
    }
    this.stepRow[this.steps] = r;
    this.stepHeight[this.steps] = height;
    this.steps++;
    this.lastHeight = height;
  }

  /** Derivation height of row `r` (0 for facts). */
  heightOf(r: number): number {
    // The last step starting at or before r.
    let lo = 0;
    let hi = this.steps;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.stepRow[mid]! <= r) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : this.stepHeight[lo - 1]!;
  }

  /** The height of every row, one per row (a new array each call; `heightOf` reads one). */
  get height(): Int32Array {
    const out = new Int32Array(this.count);
    for (let i = 0; i < this.steps; i++)
      out.fill(this.stepHeight[i]!, this.stepRow[i]!, i + 1 < this.steps ? this.stepRow[i + 1]! : this.count);
    return out;
  }

  /**
   * Room for twice the rows: in place when the arena has it right after the rows (nothing copied;
   * a running join's view of the rows stays valid, the same memory), else by a move.
   */
  private growRows(): void {
    // Doubled while small, by half once large (the spare rows are cut when the relation is
    // complete, but until then they and, when the arena has no room after them, the array they
    // replace are held together: 4.6 M rows of a 1M-statement kernel's expr_kind in 8.4 M).
    const cap = Math.max(4, this.capacity < LARGE_ROWS ? this.capacity * 2 : Math.ceil(this.capacity * 1.5));
    const grown = this.pool && this.arity > 0 ? this.pool.grow(this.data, cap * this.arity) : null;
    if (grown) {
      this.data = grown;
      this.capacity = cap;
    } else this.resize(cap);
  }

  /** Moves the rows to arrays of `cap` rows (at least `count`). */
  private resize(cap: number, exact = false): void {
    if (this.arity > 0) {
      const n = cap * this.arity;
      const pool = exact ? null : this.pool;
      const d = this.wide ? (pool ? pool.float64(n, false) : new Float64Array(n)) : pool ? pool.int32(n, false) : new Int32Array(n);
      d.set(this.count * this.arity === this.data.length ? this.data : this.data.subarray(0, this.count * this.arity));
      this.pool?.retire(this.data);
      this.data = d;
    }
    this.capacity = cap;
  }

  /** Rebuilds the set with `size` slots (a power of two, at least 4/3 of the rows) from the rows, in row order. */
  private rehash(size: number): void {
    // The old set first: only this relation's methods read a set (never a running join's code), and
    // the new one may then reuse its pages.
    if (this.set) this.pool?.release(this.set);
    this.set = null;
    const set = this.pool ? this.pool.int32(size) : new Int32Array(size);
    const mask = size - 1;
    const d = this.data;
    const a = this.arity;
    for (let r = 0; r < this.count; r++) {
      const h = this.hashOfRow(d, r * a);
      let slot = h & mask;
      while (set[slot] !== 0) slot = (slot + 1) & mask;
      set[slot] = (h & ~mask) | (r + 1);
    }
    this.set = set;
    this.mask = mask;
  }

  /** Moves the rows to a Float64Array (a value beyond 32 bits is being added). */
  private widen(): void {
    const d = this.pool ? this.pool.float64(this.capacity * this.arity, false) : new Float64Array(this.capacity * this.arity);
    d.set(this.data);
    this.pool?.retire(this.data);
    this.data = d;
    this.wide = true;
  }

  /** The index on `cols` (created empty on first use; call `ensure` before lookups). */
  index(cols: readonly number[]): Index {
    const key = cols.join(',');
    let ix = this.indexes.get(key);
    if (!ix) {
      ix = new Index(this, cols);
      this.indexes.set(key, ix);
    }
    return ix;
  }

  /**
   * Frees what only adding rows needs — the dedup set and spare row capacity — for a relation that
   * is complete; both come back (built from the rows) if a row is added or looked up later.
   */
  compact(): void {
    if (this.set) this.pool?.release(this.set);
    this.set = null;
    if (this.bits) this.pool?.release(this.bits);
    this.bits = null;
    if (this.capacity - this.count <= this.capacity / 16) return;
    const cap = Math.max(4, this.count);
    // An array of the arena is cut in place (the spare blocks go back to it); another is copied at its size.
    if (this.pool && this.arity > 0) {
      this.data = this.pool.shrink(this.data, cap * this.arity);
      this.capacity = cap;
    } else this.resize(cap, true);
  }

  /** Frees the indexes and the dedup set (rebuilt from the rows when next used). */
  releaseIndexes(): void {
    if (this.indexes.size === 0 && this.set === null && this.bits === null) return; // (called for every relation after every stratum)
    for (const ix of this.indexes.values()) ix.retire();
    this.indexes.clear();
    if (this.set) this.pool?.release(this.set);
    this.set = null;
    if (this.bits) this.pool?.release(this.bits);
    this.bits = null;
  }

  /** Gives every array back to the evaluation's arena (the relation is not used after). */
  free(): void {
    this.releaseIndexes();
    this.pool?.retire(this.data);
    this.data = EMPTY;
    this.count = 0;
    this.bitmapNeed = 0;
    this.capacity = 0;
  }

  /**
   * Moves the rows into an array of their own, sized exactly, and drops the indexes and the dedup
   * set (rebuilt if needed): for a relation read after the arena it took its arrays from is reset.
   */
  detach(): void {
    this.indexes.clear();
    this.set = null;
    this.bits = null;
    this.pool = null;
    if (this.arity === 0) return;
    this.data = this.data.slice(0, this.count * this.arity);
    this.capacity = this.count;
  }

  /** Bytes held by the rows, the set, the height steps and the indexes. */
  get bytes(): number {
    let n =
      this.data.byteLength +
      (this.set?.byteLength ?? 0) +
      (this.bits?.byteLength ?? 0) +
      this.stepRow.byteLength +
      this.stepHeight.byteLength;
    for (const ix of this.indexes.values()) n += ix.bytes;
    return n;
  }

  /** The values of row `r`. */
  row(r: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.arity; i++) out.push(this.data[r * this.arity + i]!);
    return out;
  }

  /**
   * A complete relation of the `n` rows in the first `n * arity` values of `data` (row-major; the
   * array becomes the relation's), duplicates dropped, all at height 0, with no dedup set: a
   * dedup pass runs only when no column has distinct values (checked in one pass over it: strictly
   * increasing, or distinct ids over a dense range) — a relation with an id column, most fact
   * files, needs none. `arena`: where the scratch arrays of the checks come from.
   */
  static fromRows(arity: number, n: number, data: Int32Array | Float64Array, arena: Arena | null = null): Relation {
    const r = new Relation(arity, 4);
    r.set = null;
    if (arity === 0) {
      r.count = n > 0 ? 1 : 0;
      return r;
    }
    if (data.length < n * arity) throw new Error(`fromRows: ${data.length} values cannot hold ${n} rows of ${arity}`);
    r.data = data;
    r.wide = data instanceof Float64Array;
    r.capacity = Math.floor(data.length / arity);
    r.count = n;
    if (n > 1 && !distinctColumn(data, n, arity, arena)) r.dedupInPlace(arena);
    return r;
  }

  /** Drops the rows equal to an earlier row (keeping the order of the others); leaves no set. */
  private dedupInPlace(arena: Arena | null): void {
    const a = this.arity;
    const d = this.data;
    const n = this.count;
    const size = pow2(2 * n);
    const set = arena ? arena.int32(size) : new Int32Array(size);
    const mask = size - 1;
    let w = 0;
    for (let r = 0; r < n; r++) {
      const sb = r * a;
      let slot = this.hashOfRow(d, sb) & mask;
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
    this.count = w;
    this.set = null;
    arena?.release(set);
  }

  /** A copy holding the same tuples and heights (indexes are not copied). */
  clone(): Relation {
    const c = new Relation(this.arity, 4);
    c.capacity = Math.max(4, this.count);
    c.data = this.arity === 0 ? EMPTY : this.wide ? new Float64Array(c.capacity * this.arity) : new Int32Array(c.capacity * this.arity);
    c.data.set(this.data.subarray(0, this.count * this.arity));
    c.wide = this.wide;
    c.count = this.count;
    c.set = null;
    c.stepRow = this.stepRow.slice(0, this.steps);
    c.stepHeight = this.stepHeight.slice(0, this.steps);
    c.steps = this.steps;
    c.lastHeight = this.lastHeight;
    return c;
  }
}
