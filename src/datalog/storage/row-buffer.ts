// Append-only number rows in one growing array of an arena: where a fact database puts the tuples
// streamed into it before it knows how many there are. The array doubles as rows come (in place:
// it starts a chunk of the arena of its own, see Arena.growable; moved when it outgrows the chunk,
// the old one going back to the arena at once) and is handed over as the relation's rows when the relation is
// built: no second copy. Like a relation's rows, the values are an Int32Array while every value
// fits 32 bits and are widened once to a Float64Array (encoded 64-bit numbers) when one does not.
import { Arena } from './arena.js';

const EMPTY = new Int32Array(0);

/** Rows of one arity (at least 1), appended in order; duplicates are kept. */
export class RowBuffer {
  private data: Int32Array | Float64Array = EMPTY;
  /** True once the rows are a Float64Array. */
  private wide = false;
  /** Number of rows appended. */
  count = 0;

  /** `arena`: where the rows' array comes from (default: one of its own). */
  constructor(
    readonly arity: number,
    private readonly arena: Arena = new Arena(),
  ) {
    if (arity < 1) throw new Error('a RowBuffer holds rows of at least one value');
  }

  /** True once the rows are a Float64Array (a value beyond 32 bits was appended). */
  get isWide(): boolean {
    return this.wide;
  }

  /** Appends the first `arity` values of `row` (encoded numbers: any double). */
  push(row: ArrayLike<number>): void {
    const a = this.arity;
    if (!this.wide) {
      for (let i = 0; i < a; i++) {
        const v = row[i]!;
        if ((v | 0) !== v) {
          this.move(this.data.length, true);
          break;
        }
      }
    }
    const base = this.count * a;
    if (base + a > this.data.length) this.move(Math.max(16 * a, 2 * this.data.length), this.wide);
    const d = this.data;
    for (let i = 0; i < a; i++) d[base + i] = row[i]!;
    this.count++;
  }

  /** Moves the rows to an array of `length` values (a Float64Array when `wide`). */
  private move(length: number, wide: boolean): void {
    const grown = wide === this.wide && this.data.length > 0 ? this.arena.grow(this.data, length) : null;
    if (grown) {
      this.data = grown;
      return;
    }
    const d = this.arena.growable(length, wide);
    d.set(this.data.subarray(0, this.count * this.arity));
    this.arena.release(this.data);
    this.data = d;
    this.wide = wide;
  }

  /** Calls `f` with every row in order (`f` gets a reused array holding the row: copy what it keeps). */
  forEach(f: (row: Int32Array | Float64Array) => void): void {
    const a = this.arity;
    const d = this.data;
    const row = this.wide ? new Float64Array(a) : new Int32Array(a);
    for (let r = 0; r < this.count; r++) {
      const base = r * a;
      for (let i = 0; i < a; i++) row[i] = d[base + i]!;
      f(row);
    }
  }

  /**
   * Hands over the rows — the first `count * arity` values of the array returned, row-major, an
   * array of the arena that now belongs to the caller — and empties the buffer.
   */
  take(): Int32Array | Float64Array {
    const d = this.data;
    this.data = EMPTY;
    this.wide = false;
    this.count = 0;
    return d;
  }

  /** Calls `f` with every row in order, like `forEach`, then empties the buffer (its array goes back to the arena). */
  drain(f: (row: Int32Array | Float64Array) => void): void {
    this.forEach(f);
    this.arena.release(this.take());
  }
}
