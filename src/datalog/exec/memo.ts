// The memo of one aggregate for one run of a compiled plan: the aggregate's value by key (the
// outer variables it reads), in typed arrays of the evaluation's arena rather than a JS Map. A
// run may remember a million keys (`dep_count(C, N) :- ..., N = count : {...}` on a 1M-statement
// kernel): a Map of them, and the tables it leaves behind as it grows, stay in the JS heap as
// garbage until V8's next full collection; these arrays go back to the arena when the run ends
// (`MemoSet.release`) and the next array reuses their pages.
import type { Arena } from '../storage/arena.js';
import { hashFinish, hashValue } from '../storage/hash.js';

/** Slot states: no key yet, a key with a value, a key whose aggregate had no value (a min over nothing). */
const EMPTY = 0;
const VALUE = 1;
const NONE = 2;

/**
 * An open-addressing table (linear probing, at most half full) from keys of `width` encoded
 * values (any number but NaN) to one value. Use: `s = at(...)` finds the key's slot, or the empty
 * slot where it goes; `state(s)` says which; `put(s, ...)` fills an empty slot — with no other
 * `at` or `put` on this memo between the two (the slot may move when the table grows).
 */
export class AggMemo {
  private keys: Float64Array;
  private vals: Float64Array;
  private states: Uint8Array;
  private mask: number;
  private count = 0;
  /** The key being looked up (`atN`'s argument: written by the caller, `width` values). */
  readonly q: Float64Array;
  /** The key of the last `at` (for `put`). */
  private readonly last: Float64Array;

  constructor(
    readonly width: number,
    private readonly arena: Arena | null,
  ) {
    this.q = new Float64Array(Math.max(1, width));
    this.last = new Float64Array(Math.max(1, width));
    this.mask = 15;
    this.keys = this.f64(16 * Math.max(1, width));
    this.vals = this.f64(16);
    this.states = this.arena ? this.arena.uint8(16) : new Uint8Array(16);
  }

  private f64(n: number): Float64Array {
    return this.arena ? this.arena.float64(n, false) : new Float64Array(n);
  }

  /** Number of keys remembered. */
  get size(): number {
    return this.count;
  }

  /** The slot of the one-value key `k`. */
  at1(k: number): number {
    this.q[0] = k;
    return this.atN();
  }

  /** The slot of the two-value key (`k0`, `k1`). */
  at2(k0: number, k1: number): number {
    this.q[0] = k0;
    this.q[1] = k1;
    return this.atN();
  }

  /** The slot of the key in `q`. */
  atN(): number {
    const w = this.width;
    const q = this.q;
    let h = 0;
    for (let i = 0; i < w; i++) h = hashValue(h, q[i]!);
    h = hashFinish(h);
    const keys = this.keys;
    const states = this.states;
    const mask = this.mask;
    let s = h & mask;
    for (;;) {
      if (states[s] === EMPTY) break;
      const b = s * w;
      let i = 0;
      while (i < w && keys[b + i] === q[i]) i++;
      if (i === w) return s;
      s = (s + 1) & mask;
    }
    this.last.set(q.subarray(0, w));
    return s;
  }

  /** 0: slot `s` is empty; 1: it holds a value (`value(s)`); 2: its key's aggregate had none. */
  state(s: number): number {
    return this.states[s]!;
  }

  /** The value in slot `s`. */
  value(s: number): number {
    return this.vals[s]!;
  }

  /** Remembers, in the empty slot `s` the last `at` gave, the value `v` of its key (`found` 0: none). */
  put(s: number, v: number, found: number): void {
    const w = this.width;
    this.keys.set(this.last.subarray(0, w), s * w);
    this.vals[s] = v;
    this.states[s] = found === 0 ? NONE : VALUE;
    this.count++;
    if (this.count * 2 > this.mask + 1) this.grow();
  }

  /** Doubles the table (the old arrays go back to the arena at once: only this class reads them). */
  private grow(): void {
    const w = this.width;
    const { keys, vals, states } = this;
    const size = 2 * (this.mask + 1);
    const mask = size - 1;
    const nk = this.f64(size * w);
    const nv = this.f64(size);
    const ns = this.arena ? this.arena.uint8(size) : new Uint8Array(size);
    for (let s = 0; s <= this.mask; s++) {
      if (states[s] === EMPTY) continue;
      let h = 0;
      for (let i = 0; i < w; i++) h = hashValue(h, keys[s * w + i]!);
      let t = hashFinish(h) & mask;
      while (ns[t] !== EMPTY) t = (t + 1) & mask;
      for (let i = 0; i < w; i++) nk[t * w + i] = keys[s * w + i]!;
      nv[t] = vals[s]!;
      ns[t] = states[s]!;
    }
    this.free();
    this.keys = nk;
    this.vals = nv;
    this.states = ns;
    this.mask = mask;
  }

  /** Gives the arrays back to the arena (the memo is not used after). */
  free(): void {
    this.arena?.release(this.keys);
    this.arena?.release(this.vals);
    this.arena?.release(this.states);
  }
}

/** The memos made during one run of a compiled plan (`M` in the generated code), freed together when it ends. */
export class MemoSet {
  private readonly made: AggMemo[] = [];

  constructor(private readonly arena: Arena | null) {}

  /** A new, empty memo of keys of `width` values. */
  make(width: number): AggMemo {
    const m = new AggMemo(width, this.arena);
    this.made.push(m);
    return m;
  }

  /** Frees every memo made since the last call: their run is over. */
  release(): void {
    for (const m of this.made) m.free();
    this.made.length = 0;
  }
}
