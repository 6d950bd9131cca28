/**
 * Rule-supplied DSL text (an edit's keyword value, an inserted call's argument) read with the
 * real expression parser: the text must be exactly one expression on one line, written with
 * the canonical `pl` / `pld` names. Nothing is guessed: text that does not parse is refused.
 */

import type { Expr } from '../ir/nodes.js';
import { DiagnosticError } from '../report/diagnostic.js';
import type { Reporter } from './build.js';
import { ParseFailure, parseRule } from './dsl-parser.js';
import { KEYWORDS as PYTHON_KEYWORDS } from './hand-tokens.js';
import { OffsetMap } from './layout.js';
import { MAX_NESTING } from './scan.js';

class Refused extends Error {}

/** The Python keywords, which are never a name. */
const KEYWORDS = PYTHON_KEYWORDS;

/** True when `text` is a Python identifier that is no keyword (a name a binding or keyword argument can have). */
export function isIdentifier(text: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) && !KEYWORDS.has(text);
}

/** True when `text` is a dotted op name (`system.fence`, `pld.system.notify`). */
export function isOpName(text: string): boolean {
  return text.split('.').every(isIdentifier);
}

/**
 * Parses `text` as one DSL expression; returns the expression (spans: zero-width at `at`) or
 * the reason it is not one.
 */
export function parseExprText(text: string, at: number): { expr: Expr } | { error: string } {
  if (/[\r\n\f\v\u0085\u2028\u2029]/.test(text)) return { error: 'it spans several lines (an edit value is one expression on one line)' };
  if (text.includes('#')) return { error: 'it holds a comment' };
  if (text.trim() === '') return { error: 'it is empty' };
  if (text.length > 10_000) return { error: 'it is longer than 10,000 characters' };
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (depth > MAX_NESTING) return { error: `it nests brackets more than ${MAX_NESTING} deep` };
  }
  let reason = '';
  const refuse = (message: string): never => {
    reason = message;
    throw new Refused();
  };
  const report: Reporter = { unsupported: (_s, m) => refuse(m), syntax: (_s, m) => refuse(m) };
  const map = new OffsetMap();
  map.add(0, 0, text.length);
  let e: Expr;
  try {
    e = parseRule<Expr>({ out: text, map }, 'ExprItem', { report, constants: new Map() });
  } catch (err) {
    if (err instanceof Refused) return { error: reason.replace(/\.$/, '') };
    if (err instanceof ParseFailure || err instanceof DiagnosticError || err instanceof RangeError)
      return { error: 'it is not an expression' };
    throw err;
  }
  return { expr: zeroSpans(e, at) };
}

/** A copy of `x` with every span set to the empty span at `at`. */
function zeroSpans<T>(x: T, at: number): T {
  // Every `start` / `end` (a node's own span) and every deps span but an absent one (-1) becomes `at`.
  return JSON.parse(JSON.stringify(x), (k, v: unknown) =>
    k === 'start' || k === 'end' || ((k === 'depsStart' || k === 'depsEnd') && v !== -1) ? at : v,
  ) as T;
}
