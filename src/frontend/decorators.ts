/**
 * What a decorator line stands for, read as Python reads it: the dotted name after `@` (inside
 * any parentheses, across `\` continuations, however long), its first name resolved through the
 * module's imports, and PyPTO's module paths of the decorator objects folded to their `pl.`
 * names (`pypto.jit.decorator.jit` → `pl.jit`, see python/pypto/jit/ and language/__init__.py).
 */

/** The module paths under which PyPTO defines its decorator objects, and the canonical name of each. */
const PATHS: ReadonlyMap<string, string> = new Map([
  ['pypto.jit.jit', 'pl.jit'],
  ['pypto.jit.decorator.jit', 'pl.jit'],
  ['pypto.language.jit', 'pl.jit'],
  ['pypto.language.program', 'pl.program'],
  ['pypto.language.function', 'pl.function'],
  ['pypto.language.inline', 'pl.inline'],
  ['pypto.language.parser.decorator.program', 'pl.program'],
  ['pypto.language.parser.decorator.function', 'pl.function'],
  ['pypto.language.parser.decorator.inline', 'pl.inline'],
]);

/** `pypto.jit.decorator.jit.incore` → `pl.jit.incore` (a dotted name whose prefix is one of PATHS), else unchanged. */
export function foldDecoratorPath(dotted: string): string {
  if (!dotted.startsWith('pypto.')) return dotted;
  for (const [path, canonical] of PATHS) {
    if (dotted === path) return canonical;
    if (dotted.startsWith(`${path}.`)) return canonical + dotted.slice(path.length);
  }
  return dotted;
}

const NAME = /^@\s*(?:\(\s*)*([\p{L}_][\p{L}\p{N}_]*(?:\s*\.\s*[\p{L}_][\p{L}\p{N}_]*)*)/u;

/**
 * The canonical dotted name of the decorator on `line` (a logical line with comments blanked and
 * continuations turned to spaces), `names` mapping local names to canonical ones (imports.ts):
 * `@jit.incore(level=...)` with `from pypto.jit import jit` → `pl.jit.incore`. Null when the
 * line is no decorator of a dotted name.
 */
export function decoratorName(line: string, names: ReadonlyMap<string, string>): string | null {
  const parts = decoratorParts(line);
  if (!parts) return null;
  // A name the imports do not bind is no PyPTO decorator (`import numpy as pl`), but for a
  // module path written out (`@pypto.jit.jit`).
  const first = names.get(parts[0]!) ?? (parts[0] === 'pypto' ? 'pypto' : null);
  if (first === null) return null;
  return foldDecoratorPath([first, ...parts.slice(1)].join('.'));
}

/** The names of the dotted decorator on `line` as written (`@pl . jit.incore(...)` → pl, jit, incore), or null. */
export function decoratorParts(line: string): string[] | null {
  const m = NAME.exec(line);
  return m ? m[1]!.replace(/\s+/g, '').split('.') : null;
}

/** What a canonical decorator name declares: a program, a JIT kernel form, a `@pl.function` / `@pl.inline`, or nothing PyPTO's. */
export type DecoratorRole = 'program' | 'jit' | 'function' | null;

/** The role of a canonical decorator name (`pl.jit.<anything>` is a JIT form: an unknown one is reported when it is read). */
export function decoratorRole(name: string | null): DecoratorRole {
  if (name === null) return null;
  if (name === 'pl.program') return 'program';
  if (name === 'pl.jit' || name.startsWith('pl.jit.')) return 'jit';
  if (name === 'pl.function' || name === 'pl.inline') return 'function';
  return null;
}
