/**
 * Structural equality of IR trees: two trees are equal when they are the same program,
 * whatever their source spelling. Ignored / normalised:
 * - a program's `constants` (its enclosing function's bindings: their effect is in the tree,
 *   e.g. resolved shapes, and `fmt` prints only the ones the program uses);
 * - `start` / `end` (a node's span) and `depsStart` / `depsEnd` (positions), `bareDecorator` (`@pl.function` vs `@pl.function()`), `noSelf`
 *   (a method written without `self`), a module's `problems` and `spell`,
 *   `isElif` (`elif` vs `else: if`), and `source` (a module's text);
 * - keyword lists (`kwargs`, `decoratorKwargs`) compare as name-keyed sets (order ignored);
 * - a function's `pl.func_attr` lines compare as their merged entries (PyPTO merges the lines);
 * - statement bodies compare in canonical order: declarations first (`hoistDecls`, stable
 *   among themselves), as the printer writes them.
 * Everything else (names, literal values, float text, types, nesting) must match exactly.
 * `Map`s (module constants) compare entry by entry.
 */
import type { DictExpr, Keyword, Stmt } from './nodes.js';
import { hoistDecls } from './visit.js';

const IGNORED: ReadonlySet<string> = new Set([
  'start',
  'end',
  'depsStart',
  'depsEnd',
  'bareDecorator',
  'isElif',
  'source',
  'noSelf',
  'problems',
  'spell',
]);
const KEYWORD_LISTS: ReadonlySet<string> = new Set(['kwargs', 'decoratorKwargs']);
const BODIES: ReadonlySet<string> = new Set(['body', 'then', 'orelse']);

function sortKeywords(ks: readonly Keyword[]): Keyword[] {
  return [...ks].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function normalizeField(key: string, v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  if (KEYWORD_LISTS.has(key)) return sortKeywords(v as Keyword[]);
  if (BODIES.has(key)) return hoistDecls(v as Stmt[]);
  // A function's `pl.func_attr` lines: PyPTO merges them, so only their entries in order count.
  if (key === 'attrs' && v.every((d: { kind?: unknown }) => d?.kind === 'Dict')) return (v as DictExpr[]).flatMap((d) => d.entries);
  return v;
}

function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!eq(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !eq(v, b.get(k))) return false;
    return true;
  }
  if (b instanceof Map) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) {
    if (IGNORED.has(k) || (k === 'constants' && ao['kind'] === 'Program')) continue;
    const av = ao[k];
    const bv = bo[k];
    // A field absent on one side equals `undefined` on the other.
    if (!eq(normalizeField(k, av), normalizeField(k, bv))) return false;
  }
  return true;
}

/** True when `a` and `b` are the same IR up to spans and spelling (see the file comment). */
export function structurallyEqual(a: unknown, b: unknown): boolean {
  return eq(a, b);
}

/**
 * A deep copy of `x` without the ignored fields and with keyword lists and bodies in
 * canonical order, so that `expect(stripSpans(a)).toEqual(stripSpans(b))` gives readable
 * diffs exactly when `structurallyEqual(a, b)` is false. Maps become plain objects.
 */
export function stripSpans<T>(x: T): unknown {
  return strip(x);
}

function strip(x: unknown): unknown {
  if (typeof x !== 'object' || x === null) return x;
  if (Array.isArray(x)) return x.map(strip);
  if (x instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of x) o[String(k)] = strip(v);
    return o;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
    if (IGNORED.has(k) || v === undefined || (k === 'constants' && (x as { kind?: unknown }).kind === 'Program')) continue;
    out[k] = strip(normalizeField(k, v));
  }
  return out;
}
