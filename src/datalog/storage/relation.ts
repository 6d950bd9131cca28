// Compact tuple storage: row-major rows of symbol ids and encoded 64-bit numbers (int64.ts) in an
// Int32Array while every value fits 32 bits, widened once to a Float64Array when one does not; an
// open-addressing set of row numbers for deduplication, or a bitmap of the tuples while the
// columns' value ranges are small (built when first needed — a membership lookup on a complete
// relation builds the bitmap when it can — and dropped by `compact` once the relation is
// complete); the derivation height of the rows as a step function
// (rows are appended in order of height, so a relation has one step per iteration that added to
// it, not one number per row: heights.ts); and lazily built indexes per bound-column set (column-index.ts).
import type { Arena } from './arena.js';
import { Index } from './column-index.js';
import { hashFinish, hashStep, hashValue } from './hash.js';
import { HeightSteps } from './heights.js';
import { RowLimit } from './row-limit.js';
import { compactIntRange, dedupRows, distinctColumn, EMPTY, pow2 } from './row-scan.js';

/** The slots of a dedup set for `n` rows: the least power of two at least 4/3 of them (at most three quarters full). */
function setSlots(n: number): number {
  return pow2(Math.ceil((4 * n) / 3) + 1);
}

/** A relation of this many rows or more grows its rows by half instead of doubling them. */
const LARGE_ROWS = 1 << 20;

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
 * A bitmap need as a small integer: beyond BITMAP_MAX_BITS no budget fits, and a larger number
 * stored in `bitmapNeed` (a double) would change the shape of every relation, deoptimising every
 * compiled join that met the old one.
 */
function needAtMost(n: number): number {
  return Math.min(n, BITMAP_MAX_BITS + 1);
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
  /** The indexes made, in order (a relation has a few: found by comparing their columns, no key string made per lookup). */
  private readonly indexes: Index[] = [];
  /** The rows' derivation heights. */
  private heights = new HeightSteps();
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
    if (initialCapacity === 0) {
      // Nothing allocated before the first row: an evaluation makes every relation of its program,
      // most of which (on a small kernel) stay empty.
      this.capacity = 0;
      this.data = EMPTY;
      this.set = null;
      this.mask = 0;
      return;
    }
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
    if (height !== this.heights.last) this.heights.start(r, height);
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

  /** Appends the first `n` rows of `rows` (row-major), known distinct from one another and from every row, at `height`, unchecked: the set or bitmap is dropped (rebuilt when next needed); RowLimit, none added, past `limit`. */
  appendDistinct(rows: Int32Array, n: number, height: number): void {
    if (this.count + n > this.limit) throw new RowLimit();
    if (this.set) this.pool?.release(this.set);
    if (this.bits) this.pool?.release(this.bits);
    this.set = this.bits = null;
    const r = this.count;
    if (n > 0 && height !== this.heights.last) this.heights.start(r, height);
    if (r + n > this.capacity) this.resize(r + n);
    this.data.set(rows.subarray(0, n * this.arity), r * this.arity);
    this.count = r + n;
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
    if (height !== this.heights.last) this.heights.start(r, height);
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
          if (record) this.bitmapNeed = needAtMost(Math.max(this.bitmapNeed, product * (budget + 1)));
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
        if (record) this.bitmapNeed = needAtMost(Math.max(this.bitmapNeed, product));
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

  /** Derivation height of row `r` (0 for facts). */
  heightOf(r: number): number {
    return this.heights.of(r);
  }

  /** The height of every row, one per row (a new array each call; `heightOf` reads one). */
  get height(): Int32Array {
    return this.heights.all(this.count);
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
    const n = cols.length;
    for (const ix of this.indexes) {
      const c = ix.cols;
      if (c.length !== n) continue;
      let i = 0;
      while (i < n && c[i] === cols[i]) i++;
      if (i === n) return ix;
    }
    const ix = new Index(this, cols);
    this.indexes.push(ix);
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
    if (this.indexes.length === 0 && this.set === null && this.bits === null) return; // (called for every relation after every stratum)
    for (const ix of this.indexes) ix.retire();
    this.indexes.length = 0;
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
    this.indexes.length = 0;
    this.set = null;
    this.bits = null;
    this.pool = null;
    if (this.arity === 0) return;
    this.data = this.data.slice(0, this.count * this.arity);
    this.capacity = this.count;
  }

  /** Bytes held by the rows, the set, the height steps and the indexes. */
  get bytes(): number {
    let n = this.data.byteLength + (this.set?.byteLength ?? 0) + (this.bits?.byteLength ?? 0) + this.heights.bytes;
    for (const ix of this.indexes) n += ix.bytes;
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
    this.count = dedupRows(this.data, this.count, this.arity, arena);
    this.set = null;
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
    c.heights = this.heights.clone();
    return c;
  }
}
