/**
 * A growable column of numbers held as 32-bit integers (4 bytes a row instead of a JS array's
 * 8-byte slot): the edits and text changes of a million-statement kernel are columns of these.
 * A value that is no 32-bit integer (a rule may write any number) is kept exactly, apart.
 */
export class IntColumn {
  private rows: Int32Array;
  private n = 0;
  /** Rows whose value is no 32-bit integer, by row. */
  private readonly others = new Map<number, number>();

  constructor(capacity = 16) {
    this.rows = new Int32Array(Math.max(16, capacity));
  }

  get length(): number {
    return this.n;
  }

  /** Appends `v`. */
  push(v: number): void {
    if (this.n === this.rows.length) {
      const grown = new Int32Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    if (typeof v !== 'number' || (v | 0) !== v || Object.is(v, -0)) {
      this.others.set(this.n, v);
      this.rows[this.n++] = 0;
    } else this.rows[this.n++] = v;
  }

  /** The value of row `i` (0 <= i < length). */
  at(i: number): number {
    const v = this.rows[i]!;
    return this.others.size > 0 && this.others.has(i) ? this.others.get(i)! : v;
  }
}
