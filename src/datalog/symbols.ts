// Interns symbols to dense integers so tuples are plain numeric rows; holds the database's
// 64-bit number boxes too (int64.ts), so everything that decodes a tuple has both.
import { Int64Table } from './int64.js';

/** A two-way map between symbol strings and their integer ids (ids start at 0, never reused). */
export class SymbolTable {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];
  /** The boxes of the numbers beyond ±(2^53 - 1) seen by this database. */
  readonly numbers = new Int64Table();

  /** The id of `s`, adding it when new. */
  intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
    }
    return id;
  }

  /** The id of `s`, or -1 when it was never interned (so no tuple can contain it). */
  lookup(s: string): number {
    return this.ids.get(s) ?? -1;
  }

  /** The string of an id. */
  text(id: number): string {
    const s = this.strings[id];
    if (s === undefined) throw new Error(`unknown symbol id ${id}`);
    return s;
  }

  /** Every string by id: the table's own array, which only grows (read it, never write it). */
  texts(): readonly string[] {
    return this.strings;
  }

  get size(): number {
    return this.strings.length;
  }
}
