/**
 * Memory-lean IR building. A million-statement kernel is millions of IR objects, so the
 * frontend builds them lean: arrays at their exact size (an array grown by `push` keeps up to
 * 16 spare slots, empty ones all one frozen array), and one shared copy per parse of each repeated name string and op callee.
 */
import type { Callee } from './nodes.js';

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * The one shared, frozen empty array: an empty list of the IR (a call's kwargs, an if without
 * else, ...) costs nothing. IR arrays are replaced, never grown in place, after parsing.
 */
export function empty<T>(): T[] {
  return EMPTY as never[];
}

/** `a` at its exact size: a copy without the spare capacity `push` leaves; the shared empty array when empty. */
export function exact<T>(a: T[]): T[] {
  return a.length === 0 ? (EMPTY as never[]) : a.slice();
}

/**
 * Shared strings and callees of one parse: equal identifiers are one string, and calls of the
 * same op share one (frozen) callee object. Callees are never mutated; a rewrite replaces them.
 */
export class InternPool {
  private readonly strings = new Map<string, string>();
  private readonly known = new Map<string, Callee>();
  private readonly unknown = new Map<string, Callee>();

  /** `maxStrings`: past it the strings are forgotten (a pool living through a streaming parse stays bounded). */
  constructor(private readonly maxStrings = Number.POSITIVE_INFINITY) {}

  /** The pool's copy of `s`. */
  str(s: string): string {
    const had = this.strings.get(s);
    if (had !== undefined) return had;
    if (this.strings.size >= this.maxStrings) this.strings.clear();
    this.strings.set(s, s);
    return s;
  }

  /** The shared `{ kind: 'op', name, known }` callee. */
  op(name: string, known: boolean): Callee {
    const m = known ? this.known : this.unknown;
    let c = m.get(name);
    if (c === undefined) {
      c = Object.freeze({ kind: 'op', name: this.str(name), known }) as Callee;
      m.set(name, c);
    }
    return c;
  }
}
