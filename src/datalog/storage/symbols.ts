// Interns symbols to dense integers so tuples are plain numeric rows; holds the database's
// 64-bit number boxes too (int64.ts), so everything that decodes a tuple has both.
//
// The ids are found through an open-addressing table of typed arrays (the id + 1 per slot, the
// string's hash per id), not a JS Map: a million-statement kernel interns millions of names,
// and the Map's entries and the tables it outgrew took several times the bytes per symbol of
// these arrays.

import { Int64Table } from '../syntax/int64.js';

/** The hash of a string (FNV-1a over its UTF-16 code units, then murmur3's finalizer). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A two-way map between symbol strings and their integer ids (ids start at 0, never reused). */
export class SymbolTable {
  /** The text of each id (undefined: forgotten by `retain`). */
  private readonly strings: (string | undefined)[] = [];
  /** How many ids `retain` forgot the text of. */
  private forgotten = 0;
  /** Slots: the id + 1 of a symbol, 0 when empty; at most three quarters full. */
  private slots = new Int32Array(1024);
  private mask = 1023;
  /** The hash of each symbol by id (its first `strings.length` values). */
  private hashes = new Int32Array(1024);
  /** The boxes of the numbers beyond ±(2^53 - 1) seen by this database. */
  readonly numbers = new Int64Table();

  /** The slot holding `s` (hash `h`), or the empty slot where it goes. */
  private slotOf(s: string, h: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const e = slots[i]!;
      if (e === 0) return i;
      if (this.hashes[e - 1] === h && this.strings[e - 1] === s) return i;
      i = (i + 1) & mask;
    }
  }

  /** The id of `s`, adding it when new. */
  intern(s: string): number {
    return this.internHashed(s, hashString(s));
  }

  /** `intern(s)` for a caller that knows `h`, `hashString(s)` (strings interned in every database: the rule files' facts). */
  internHashed(s: string, h: number): number {
    const i = this.slotOf(s, h);
    const e = this.slots[i]!;
    if (e !== 0) return e - 1;
    const id = this.strings.length;
    this.strings.push(s);
    if (id === this.hashes.length) {
      const bigger = new Int32Array(2 * id);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[id] = h;
    this.slots[i] = id + 1;
    if ((id + 1) * 4 > this.slots.length * 3) this.grow();
    return id;
  }

  /** Doubles the slots, placing every id again by its hash. */
  private grow(): void {
    this.place(this.slots.length * 2);
  }

  /** New slots of `size` (a power of two), every id whose text is known placed by its hash. */
  private place(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    const n = this.strings.length;
    for (let id = 0; id < n; id++) {
      if (this.strings[id] === undefined) continue;
      let i = this.hashes[id]! & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = id + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }

  /**
   * Forgets the text of every id not marked in `kept` (kept[id] !== 0): after an evaluation whose
   * result is read through a few relations, the names of a million-statement program's facts need
   * not stay. A forgotten id is never given out again; `lookup` of its text is then -1 and
   * `text` of it throws (no kept tuple holds it).
   */
  retain(kept: Uint8Array): void {
    const n = this.strings.length;
    let live = 0;
    for (let id = 0; id < n; id++) {
      if (this.strings[id] === undefined) continue;
      if (kept[id]) live++;
      else {
        this.strings[id] = undefined;
        this.forgotten++;
      }
    }
    let size = 1024;
    while (live * 4 > size * 3) size *= 2;
    this.place(size);
  }

  /** How many ids `retain` forgot the text of. */
  get forgottenCount(): number {
    return this.forgotten;
  }

  /** The id of `s`, or -1 when it was never interned (so no tuple can contain it). */
  lookup(s: string): number {
    return this.slots[this.slotOf(s, hashString(s))]! - 1;
  }

  /** The string of an id. */
  text(id: number): string {
    const s = this.strings[id];
    if (s === undefined) throw new Error(`unknown symbol id ${id}`);
    return s;
  }

  /** Every string by id (undefined: forgotten by `retain`): the table's own array, which only grows (read it, never write it). */
  texts(): readonly (string | undefined)[] {
    return this.strings;
  }

  get size(): number {
    return this.strings.length;
  }
}
