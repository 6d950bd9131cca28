// Append-only number rows in fixed-size chunks: where a fact database puts the tuples streamed
// into it before it knows how many there are, so each relation is then built once at its size.
// Like a relation's rows, the chunks are Int32Arrays while every value fits 32 bits and are
// widened once to Float64Arrays (encoded 64-bit numbers) when one does not.

const CHUNK_VALUES = 1 << 16;
const EMPTY = new Int32Array(0);

/** Rows of one arity (at least 1), appended in order; duplicates are kept. */
export class RowBuffer {
  private chunks: (Int32Array | Float64Array)[] = [];
  private readonly rowsPerChunk: number;
  private current: Int32Array | Float64Array;
  private used = 0;
  /** True once the chunks are Float64Arrays. */
  private wide = false;
  /** Number of rows appended. */
  count = 0;

  constructor(readonly arity: number) {
    if (arity < 1) throw new Error('a RowBuffer holds rows of at least one value');
    this.rowsPerChunk = Math.max(1, Math.floor(CHUNK_VALUES / arity));
    this.current = new Int32Array(this.rowsPerChunk * arity);
    this.chunks.push(this.current);
  }

  /** True once the chunks are Float64Arrays (a value beyond 32 bits was appended). */
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
          this.widen();
          break;
        }
      }
    }
    if (this.used === this.rowsPerChunk) {
      this.current = this.wide ? new Float64Array(this.rowsPerChunk * a) : new Int32Array(this.rowsPerChunk * a);
      this.chunks.push(this.current);
      this.used = 0;
    }
    const c = this.current;
    const base = this.used * a;
    for (let i = 0; i < a; i++) c[base + i] = row[i]!;
    this.used++;
    this.count++;
  }

  /** Moves every chunk to a Float64Array (a value beyond 32 bits is being appended). */
  private widen(): void {
    this.chunks = this.chunks.map((c) => Float64Array.from(c));
    this.current = this.chunks[this.chunks.length - 1]!;
    this.wide = true;
  }

  /** Calls `f` with every row in order (`f` gets a reused array holding the row: copy what it keeps). */
  forEach(f: (row: Int32Array | Float64Array) => void): void {
    const a = this.arity;
    const row = this.wide ? new Float64Array(a) : new Int32Array(a);
    const last = this.chunks.length - 1;
    this.chunks.forEach((c, k) => {
      const rows = k === last ? this.used : this.rowsPerChunk;
      for (let r = 0; r < rows; r++) {
        const base = r * a;
        for (let i = 0; i < a; i++) row[i] = c[base + i]!;
        f(row);
      }
    });
  }

  /**
   * Calls `f` with each chunk in order and the number of rows it holds (row-major values), dropping
   * each once read: the buffer is empty afterwards.
   */
  drainChunks(f: (chunk: Int32Array | Float64Array, rows: number) => void): void {
    const chunks = this.chunks;
    const last = chunks.length - 1;
    for (let k = 0; k <= last; k++) {
      const c = chunks[k]!;
      chunks[k] = EMPTY;
      f(c, k === last ? this.used : this.rowsPerChunk);
    }
    this.chunks = [];
    this.current = EMPTY;
    this.used = this.rowsPerChunk;
    this.count = 0;
  }

  /**
   * Calls `f` with every row in order, like `forEach`, dropping each chunk once read: the buffer
   * is empty afterwards (its memory is released while a relation is built from it).
   */
  drain(f: (row: Int32Array | Float64Array) => void): void {
    const a = this.arity;
    const row = this.wide ? new Float64Array(a) : new Int32Array(a);
    const chunks = this.chunks;
    const last = chunks.length - 1;
    for (let k = 0; k <= last; k++) {
      const c = chunks[k]!;
      chunks[k] = EMPTY;
      const rows = k === last ? this.used : this.rowsPerChunk;
      for (let r = 0; r < rows; r++) {
        const base = r * a;
        for (let i = 0; i < a; i++) row[i] = c[base + i]!;
        f(row);
      }
    }
    // No chunk is kept: the next push starts one.
    this.chunks = [];
    this.current = EMPTY;
    this.used = this.rowsPerChunk;
    this.count = 0;
  }
}
