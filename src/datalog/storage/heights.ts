// The derivation heights of a relation's rows as a step function: rows are appended in order of
// height, so a relation keeps one step per iteration that added to it, not a height per row.
import { EMPTY } from './row-scan.js';

/** Heights as steps: from row rows[i] on (up to the next step) the height is heights[i]; 0 before the first. */
export class HeightSteps {
  private rows: Int32Array = EMPTY;
  private heights: Int32Array = EMPTY;
  private steps = 0;
  /** The height of the last step (0 before the first). */
  last = 0;

  /** Starts a new height step at row `r`. */
  start(r: number, height: number): void {
    if (this.steps === this.rows.length) {
      const n = Math.max(4, this.steps * 2);
      const rows = new Int32Array(n);
      const hs = new Int32Array(n);
      rows.set(this.rows);
      hs.set(this.heights);
      this.rows = rows;
      this.heights = hs;
    }
    this.rows[this.steps] = r;
    this.heights[this.steps] = height;
    this.steps++;
    this.last = height;
  }

  /** Derivation height of row `r` (0 for facts). */
  of(r: number): number {
    // The last step starting at or before r.
    let lo = 0;
    let hi = this.steps;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rows[mid]! <= r) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : this.heights[lo - 1]!;
  }

  /** The height of each of the first `count` rows (a new array). */
  all(count: number): Int32Array {
    const out = new Int32Array(count);
    for (let i = 0; i < this.steps; i++) out.fill(this.heights[i]!, this.rows[i]!, i + 1 < this.steps ? this.rows[i + 1]! : count);
    return out;
  }

  /** Bytes held by the steps. */
  get bytes(): number {
    return this.rows.byteLength + this.heights.byteLength;
  }

  /** A copy of the steps. */
  clone(): HeightSteps {
    const c = new HeightSteps();
    c.rows = this.rows.slice(0, this.steps);
    c.heights = this.heights.slice(0, this.steps);
    c.steps = this.steps;
    c.last = this.last;
    return c;
  }
}
