// Compact tuple storage: row-major rows of symbol ids and encoded 64-bit numbers (int64.ts) in an
// Int32Array while every value fits 32 bits, widened once to a Float64Array when one does not, an open-addressing set for deduplication,
// a per-row height (derivation iteration) and lazily built hash indexes per bound-column set.
import { hashFinish, hashValue } from './hash.js';
import { RowLimit } from './limits.js';

const EMPTY = new Int32Array(0);

/** A hash index of a relation on a list of columns: key → chain of rows (newest first). */
export class Index {
  private table: Int32Array;
  private mask: number;
  private keys = 0;
  /** next[row] = the previous row with the same key, or -1. */
  next: Int32Array;
  private indexed = 0;

  constructor(
    private readonly rel: Relation,
    readonly cols: readonly number[],
  ) {
    this.table = new Int32Array(16);
    this.mask = 15;
    this.next = new Int32Array(Math.max(16, rel.count));
  }

  /** Indexes every row below `upto` that is not indexed yet. */
  ensure(upto: number): void {
    if (upto <= this.indexed) return;
    if (this.next.length < upto) {
      let n = this.next.length;
      while (n < upto) n *= 2;
      const bigger = new Int32Array(n);
      bigger.set(this.next);
      this.next = bigger;
    }
    const rel = this.rel;
    const d = rel.data;
    const a = rel.arity;
    const cols = this.cols;
    const nc = cols.length;
    for (let r = this.indexed; r < upto; r++) {
      if ((this.keys + 1) * 2 > this.table.length) this.grow();
      const base = r * a;
      let h = 0;
      for (let i = 0; i < nc; i++) h = hashValue(h, d[base + cols[i]!]!);
      h = hashFinish(h);
      const table = this.table;
      const mask = this.mask;
      let slot = h & mask;
      for (;;) {
        const head = table[slot]!;
        if (head === 0) {
          table[slot] = r + 1;
          this.next[r] = -1;
          this.keys++;
          break;
        }
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
          this.next[r] = head - 1;
          table[slot] = r + 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    this.indexed = upto;
  }

  private grow(): void {
    const old = this.table;
    const size = old.length * (old.length >= 1 << 16 ? 4 : 2); // 4x once large, as Relation does
    
    const table = new Int32Array(size);
    const mask = size - 1;
    const d = this.rel.data;
    const a = this.rel.arity;
    const cols = this.cols;
    for (let s = 0; s < old.length; s++) {
      const head = old[s]!;
      if (head === 0) continue;
      const base = (head - 1) * a;
      let h = 0;
      for (let i = 0; i < cols.length; i++) h = hashValue(h, d[base + cols[i]!]!);
      let slot = hashFinish(h) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = head;
    }
    this.table = table;
    this.mask = mask;
  }

  /** Newest row whose single key column equals `k0`, or -1. */
  find1(k0: number): number {
    const table = this.table;
    const mask = this.mask;
    const d = this.rel.data;
    const a = this.rel.arity;
    const c0 = this.cols[0]!;
    let slot = hashFinish(hashValue(0, k0)) & mask;
    for (;;) {
      const head = table[slot]!;
      if (head === 0) return -1;
      if (d[(head - 1) * a + c0] === k0) return head - 1;
      slot = (slot + 1) & mask;
    }
  }

  /** Newest row whose two key columns equal `k0, k1`, or -1. */
  find2(k0: number, k1: number): number {
    const table = this.table;
    const mask = this.mask;
    const d = this.rel.data;
    const a = this.rel.arity;
    const c0 = this.cols[0]!;
    const c1 = this.cols[1]!;
    let slot = hashFinish(hashValue(hashValue(0, k0), k1)) & mask;
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
    const table = this.table;
    const mask = this.mask;
    const d = this.rel.data;
    const a = this.rel.arity;
    const cols = this.cols;
    const nc = cols.length;
    let h = 0;
    for (let i = 0; i < nc; i++) h = hashValue(h, key[i]!);
    let slot = hashFinish(h) & mask;
    for (;;) {
      const head = table[slot]!;
      if (head === 0) return -1;
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
/** A set of tuples of one arity, stored as integer rows in insertion order. */
export class Relation {
  /** The rows: an Int32Array while every value fits 32 bits (most relations), else a Float64Array. */
  data: Int32Array | Float64Array;
  /** True once `data` is a Float64Array. */
  private wide = false;
  height: Int32Array;
  count = 0;
  /** At most this many rows (`--max-tuples`): adding past it throws RowLimit. */
  limit = Infinity;
  /** Open-addressing table of (row + 1, hash) pairs; row + 1 = 0 marks an empty slot. */
  private set: Int32Array;
  private mask: number;
  private capacity: number;
  private readonly indexes = new Map<string, Index>();

  constructor(
    readonly arity: number,
    initialCapacity = 16,
  ) {
    this.capacity = Math.max(4, initialCapacity);
    this.data = arity === 0 ? EMPTY : new Int32Array(this.capacity * arity);
    this.height = new Int32Array(this.capacity);
    let size = 16;
    while (size < this.capacity * 2) size *= 2;
    this.set = new Int32Array(size * 2);
    this.mask = size - 1;
  }

  private hashOf(t: ArrayLike<number>): number {
    let h = 0;
    for (let i = 0; i < this.arity; i++) h = hashValue(h, t[i]!);
    return hashFinish(h);
  }

  /** Row index of tuple `t`, or -1 when absent. */
  find(t: ArrayLike<number>): number {
    const a = this.arity;
    const d = this.data;
    const set = this.set;
    const mask = this.mask;
    const h = this.hashOf(t);
    let slot = h & mask;
    for (;;) {
      const e = set[2 * slot]!;
      if (e === 0) return -1;
      if (set[2 * slot + 1] === h) {
        const b = (e - 1) * a;
        let i = 0;
        while (i < a && d[b + i] === t[i]) i++;
        if (i === a) return e - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** True when tuple `t` is present. */
  has(t: ArrayLike<number>): boolean {
    return this.find(t) !== -1;
  }

  /** Adds tuple `t` (first `arity` values) with derivation height `h`; true when it was new. */
  add(t: ArrayLike<number>, height: number): boolean {
    const a = this.arity;
    let d = this.data;
    const set = this.set;
    const mask = this.mask;
    const h = this.hashOf(t);
    let slot = h & mask;
    for (;;) {
      const e = set[2 * slot]!;
      if (e === 0) break;
      if (set[2 * slot + 1] === h) {
        const b = (e - 1) * a;
        let i = 0;
        while (i < a && d[b + i] === t[i]) i++;
        if (i === a) return false;
      }
      slot = (slot + 1) & mask;
    }
    const r = this.count;
    if (r >= this.limit) throw new RowLimit();
    if (r === this.capacity) {
      this.growRows();
      d = this.data;
    }
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
    this.height[r] = height;
    set[2 * slot] = r + 1;
    set[2 * slot + 1] = h;
    this.count = r + 1;
    if (this.count * 4 > set.length) this.growSet();
    return true;
  }

  private growRows(): void {
    // Grow by 4x once large: fewer big reallocations, each of which can trigger a full garbage
    // collection of the JS heap when it is large (a million-statement program's IR).
    const cap = this.capacity * (this.capacity >= 1 << 16 ? 4 : 2);
    if (this.arity > 0) {
      const d = this.wide ? new Float64Array(cap * this.arity) : new Int32Array(cap * this.arity);
      d.set(this.data);
      this.data = d;
    }
    const h = new Int32Array(cap);
    h.set(this.height);
    this.height = h;
    this.capacity = cap;
  }

  private growSet(): void {
    const old = this.set;
    const grow = old.length >= 1 << 17 ? 4 : 2;
    const size = (old.length / 2) * grow; // new slot count
    const set = new Int32Array(size * 2);
    const mask = size - 1;
    for (let s = 0; s < old.length; s += 2) {
      const e = old[s]!;
      if (e === 0) continue;
      const h = old[s + 1]!;
      let slot = h & mask;
      while (set[2 * slot] !== 0) slot = (slot + 1) & mask;
      set[2 * slot] = e;
      set[2 * slot + 1] = h;
    }
    this.set = set;
    this.mask = mask;
  }

  /** Moves the rows to a Float64Array (a value beyond 32 bits is being added). */
  private widen(): void {
    const d = new Float64Array(this.capacity * this.arity);
    d.set(this.data);
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

  /** The values of row `r`. */
  row(r: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.arity; i++) out.push(this.data[r * this.arity + i]!);
    return out;
  }

  /** A copy holding the same tuples and heights (indexes are not copied). */
  clone(): Relation {
    const c = new Relation(this.arity, Math.max(16, this.count));
    const t = new Float64Array(Math.max(1, this.arity));
    for (let r = 0; r < this.count; r++) {
      for (let i = 0; i < this.arity; i++) t[i] = this.data[r * this.arity + i]!;
      c.add(t, this.height[r]!);
    }
    return c;
  }
}
