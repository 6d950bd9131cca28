// The indexes of a relation: one per set of key columns, key → chain of rows (newest first),
// dense, ranked or hashed (see Index). An index reads its relation's rows through IndexedRows.
import type { Arena } from './arena.js';
import { hashFinish, hashValue } from './hash.js';
import { compactIntRange, DENSE_SLACK, DENSE_SLOTS_PER_ROW, EMPTY, increasing, pow2 } from './row-scan.js';

/** What an index reads of its relation (a Relation is one): the rows and where arrays come from. */
export interface IndexedRows {
  readonly arity: number;
  /** The rows, row-major (replaced when the relation grows or widens: read it anew each time). */
  readonly data: Int32Array | Float64Array;
  /** The arena of the running evaluation, or null. */
  readonly pool: Arena | null;
}

/** An index is first built dense when it has at least this many rows (see `Index.tryDense`). */
const DENSE_MIN_ROWS = 256;

/** The first hashed build sizes its table for up to this many keys (see `Index.presize`). */
const PRESIZE_KEYS = 1024;

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
  // (`base` and `last` are stored `| 0`: a 32-bit integer read from a Float64Array in optimised
  // code is a double, and one stored as such changes the shape of every index, deoptimising every
  // compiled join that met the old one.)

  constructor(
    private readonly rel: IndexedRows,
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
    if (this.indexed === 0) this.presize(upto);
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

  /**
   * Before the first hashed build of `upto` rows: the empty table sized for as many keys as rows,
   * up to PRESIZE_KEYS (a table grown by doubling from 16 slots was copied once per power of two
   * on the way; `grow` projects the number of keys past that).
   */
  private presize(upto: number): void {
    const size = pow2(Math.ceil((4 * Math.min(upto, PRESIZE_KEYS)) / 3) + 1);
    if (size <= this.table.length) return;
    const pool = this.rel.pool;
    pool?.release(this.table);
    this.table = pool ? pool.int32(size) : new Int32Array(size);
    this.mask = size - 1;
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
      this.base = lo | 0;
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
    this.last = (lo + size - 1) | 0;
    this.mask = 0;
    this.base = lo | 0;
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
      this.last = v | 0;
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
