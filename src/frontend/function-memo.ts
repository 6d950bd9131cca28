/**
 * The functions a parse of a document read, kept for the next parse of its edited text (the
 * editor's incremental audit parses the whole text on each keystroke): a function (a method of a
 * `@pl.program` class, a JIT kernel) whose lines are the same text, read in the same context
 * (constants in scope, the module's import spellings, the names of its JIT kernels and inline
 * helpers), is the same IR moved to where it now starts; only the changed ones are parsed again.
 * A function whose reading reported a problem is not kept (its messages may name lines).
 */
import type { FunctionDef } from '../ir/nodes.js';

/** The functions of the previous parse (by key, spans relative to their first line's start) and those of this one. */
export interface FunctionMemo {
  /** What the previous parse kept (read only). */
  readonly previous: ReadonlyMap<string, FunctionDef>;
  /** Filled by this parse: each function it read (the next parse's `previous`). */
  readonly next: Map<string, FunctionDef>;
}

/** A memo for a parse after the one that filled `previous` (empty: the first parse). */
export function functionMemo(previous: ReadonlyMap<string, FunctionDef> = new Map()): FunctionMemo {
  return { previous, next: new Map() };
}

/** The start of the physical line holding `offset`. */
export function lineStartAt(text: string, offset: number): number {
  let i = offset;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i;
}

/** The end of the physical line holding `offset` (before its line break). */
export function lineEndAt(text: string, offset: number): number {
  let i = offset;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i++;
  }
  return i;
}
