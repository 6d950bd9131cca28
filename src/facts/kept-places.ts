/**
 * Where the nodes a NodeTable keeps only the place of are (`keep` = `span`), and the deps shells of
 * the Submits it keeps for replace_deps (`keep` = `deps`), as rows of one typed array found through
 * an open-addressing table by id: a million-statement orchestration kernel keeps over a million
 * of them, which as objects in a Map took about three times the memory of these rows.
 *
 *   addPlace(7, 'For', 10, 90)       get(7) → { kind: 'Located', of: 'For', start: 10, end: 90 }
 *   addSubmit(9, `pl.submit(self.k, x, deps=[a])` at 20..60, its deps list at 44..58)
 *                                    get(9) → { kind: 'Submit', func: 'k', args: [], kwargs: [], deps: [], depsStart: 44, depsEnd: 58, start: 20, end: 60 }
 */

import { empty } from '../ir/compact.js';
import type { SubmitExpr } from '../ir/nodes.js';
import type { Located } from './entities.js';

/** Int32 values per row: id, kind code, start, end, depsStart, depsEnd, what (one of the three below), callee code. */
const STRIDE = 8;
/** A row that is a place. */
const PLACE = 0;
/** A deps shell of a Submit with `deps=`. */
const DEPS = 1;
/** A deps shell of a Submit without `deps=`. */
const NO_DEPS = 2;

/** Places and Submit deps shells by id (each id added at most once). */
export class KeptPlaces {
  private rows = new Int32Array(64 * STRIDE);
  private count = 0;
  /** Row + 1 per slot (0: empty), at most three quarters full. */
  private slots = new Int32Array(128);
  /** The kinds and callee names rows hold, by code. */
  private readonly names: string[] = [];
  private readonly nameCode = new Map<string, number>();

  /** How many ids are kept. */
  get size(): number {
    return this.count;
  }

  /** Keeps where the node `of` kind with id `id` is. */
  addPlace(id: number, of: Located['of'], start: number, end: number): void {
    this.add(id, of, start, end, 0, 0, PLACE, undefined);
  }

  /** Keeps what replace_deps reads of the Submit with id `id` (see NodeTable's depsShell). */
  addSubmit(id: number, s: SubmitExpr): void {
    this.add(id, 'Submit', s.start, s.end, s.depsStart, s.depsEnd, s.deps === null ? NO_DEPS : DEPS, s.func);
  }

  /** The kept entity of `id` (a fresh object), or undefined when none is kept. */
  get(id: number): Located | SubmitExpr | undefined {
    const r = this.rowOf(id);
    if (r < 0) return undefined;
    const o = r * STRIDE;
    const d = this.rows;
    const start = d[o + 2]!;
    const end = d[o + 3]!;
    const what = d[o + 6]!;
    if (what === PLACE) return { kind: 'Located', of: this.names[d[o + 1]!] as Located['of'], start, end };
    return {
      kind: 'Submit',
      func: this.names[d[o + 7]!]!,
      args: empty(),
      kwargs: empty(),
      deps: what === NO_DEPS ? null : empty(),
      depsStart: d[o + 4]!,
      depsEnd: d[o + 5]!,
      start,
      end,
    };
  }

  private add(
    id: number,
    of: string,
    start: number,
    end: number,
    depsStart: number,
    depsEnd: number,
    what: number,
    func: string | undefined,
  ): void {
    if (this.rowOf(id) >= 0) throw new Error(`id ${id} is kept twice`);
    if ((this.count + 1) * STRIDE > this.rows.length) {
      const bigger = new Int32Array(this.rows.length * 2);
      bigger.set(this.rows);
      this.rows = bigger;
    }
    const r = this.count++;
    const o = r * STRIDE;
    const d = this.rows;
    d[o] = id;
    d[o + 1] = this.code(of);
    d[o + 2] = start;
    d[o + 3] = end;
    d[o + 4] = depsStart;
    d[o + 5] = depsEnd;
    d[o + 6] = what;
    d[o + 7] = func === undefined ? -1 : this.code(func);
    if (this.count * 4 > this.slots.length * 3) this.rehash(this.slots.length * 2);
    else this.place(this.slots, r);
  }

  /** Gives back the rows' spare room (after the last add; another add grows them again). */
  trim(): void {
    if (this.rows.length > this.count * STRIDE) this.rows = this.rows.slice(0, Math.max(1, this.count) * STRIDE);
  }

  /** The code of a kind or callee name. */
  private code(name: string): number {
    let k = this.nameCode.get(name);
    if (k === undefined) {
      k = this.names.length;
      this.names.push(name);
      this.nameCode.set(name, k);
    }
    return k;
  }

  /** The row of `id`, or -1. */
  private rowOf(id: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let i = hash(id) & mask; ; i = (i + 1) & mask) {
      const e = slots[i]!;
      if (e === 0) return -1;
      if (this.rows[(e - 1) * STRIDE] === id) return e - 1;
    }
  }

  private place(slots: Int32Array, r: number): void {
    const mask = slots.length - 1;
    let i = hash(this.rows[r * STRIDE]!) & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = r + 1;
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    for (let r = 0; r < this.count; r++) this.place(slots, r);
    this.slots = slots;
  }
}

/** A 32-bit integer's slot hash (murmur3's finalizer). */
function hash(x: number): number {
  let h = x ^ (x >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
