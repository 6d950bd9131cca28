/**
 * Deeply nested brackets without deep recursion. Ohm's matcher and the semantics recurse once
 * per bracket level, and the JavaScript stack ends well below Python's own limit of 200 nested
 * brackets. So before a text is matched, the items of bracket groups nested a multiple of
 * GROUP_DEPTH levels deep are parsed on their own, deepest first, each replaced in the text by
 * a placeholder of the same length (`hole` in the grammar) that stands for its expression: no
 * single match sees more than GROUP_DEPTH + 1 levels. An item is a comma-separated part of a
 * group that is a plain expression (not `k=v`, `*x`, a slice or a comprehension); other items
 * stay in place. Beyond 200 levels Python itself rejects the line ("too many nested
 * parentheses"); the scanner reports that.
 */
import type * as ohm from 'ohm-js';
import type { Expr } from '../ir/nodes.js';
import type { HandState } from './hand-expr.js';
import { handMatch } from './hand-stmt.js';
import { type Chunk, type OffsetMap, ShiftedMap } from './layout.js';
import { skipString } from './scan.js';
import { convert, pyptoGrammar, type SemState } from './semantics.js';
import { splitChunk } from './split-chunk.js';

/** Items of groups at depths GROUP_DEPTH, 2·GROUP_DEPTH, ... are parsed first. */
export const GROUP_DEPTH = 24;

const OPEN = new Set([40, 91, 123]);
const CLOSE = new Set([41, 93, 125]);
const HOLE = '\x03';
const HOLE_FILL = '\x04';

interface Group {
  open: number;
  close: number;
  depth: number;
}

/** Bracket groups of `text` (strings skipped) nested at a multiple of GROUP_DEPTH, deepest first. */
function deepGroups(text: string): Group[] {
  const stack: number[] = [];
  const out: Group[] = [];
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const r = skipString(text, i);
      i = (r < 0 ? -r - 1 : r) - 1;
      continue;
    }
    if (c === 40 || c === 91 || c === 123) {
      stack.push(i);
      if (stack.length > max) max = stack.length;
    } else if ((c === 41 || c === 93 || c === 125) && stack.length > 0) {
      const depth = stack.length;
      const open = stack.pop()!;
      if (depth % GROUP_DEPTH === 0) out.push({ open, close: i, depth });
    }
  }
  if (max <= GROUP_DEPTH) return [];
  return out.sort((a, b) => b.depth - a.depth || a.open - b.open);
}

const WORD = /[A-Za-z0-9_]/;

/**
 * The plain-expression items [start, end) of the group's content (`text` with deeper items
 * already replaced): a whole item, or the value of a keyword argument `k=v` in a call or of
 * a dict entry `k: v`.
 */
function plainItems(text: string, g: Group): [number, number][] {
  const items: [number, number][] = [];
  const bracket = text[g.open];
  let depth = 0;
  let start = g.open + 1;
  let plain = true;
  let prefixed = false;
  const finish = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && text[s] === ' ') s++;
    while (e > s && text[e - 1] === ' ') e--;
    if (plain && e > s && text[s] !== '*') items.push([s, e]);
  };
  for (let i = g.open + 1; i < g.close; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const r = skipString(text, i);
      i = Math.min(r < 0 ? -r - 1 : r, g.close) - 1;
      continue;
    }
    if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
    else if (depth === 0) {
      const ch = text[i]!;
      if (ch === ',') {
        finish(i);
        start = i + 1;
        plain = true;
        prefixed = false;
      } else if (ch === ':' || (ch === '=' && !'=<>!'.includes(text[i - 1]!) && text[i + 1] !== '=')) {
        const keyword = ch === '=' && bracket === '(' && /^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(text.slice(start, i));
        if (plain && !prefixed && (keyword || (ch === ':' && bracket === '{'))) {
          // Only the value is an expression: `k=v` in a call, `k: v` in a dict.
          start = i + 1;
          prefixed = true;
        } else plain = false;
      } else if ((ch === 'f' || ch === 'l' || ch === 'y') && !WORD.test(text[i - 1] ?? ' ')) {
        const w = /^(for|lambda|yield)(?![A-Za-z0-9_])/.exec(text.slice(i, i + 7));
        if (w) plain = false;
      }
    }
  }
  finish(g.close);
  return items;
}

/**
 * Matches `chunk.out` against `rule` and converts it, parsing deeply nested bracket items
 * first (see above). Where the hand-written parser (hand-stmt.ts) accepts the text (and
 * `hand` is set) it reads it instead of the grammar. `fail` turns a failed match (of the whole text or of one item, with the
 * piece of text and map that were matched) into a thrown diagnostic.
 */
export function matchNested<T>(
  chunk: Chunk,
  rule: string,
  state: Omit<SemState, 'map' | 'holes' | 'holeBase'> & Pick<HandState, 'pool' | 'tokens'>,
  fail: (piece: Chunk, m: ohm.MatchResult) => never,
  hand = true,
): T {
  const groups = deepGroups(chunk.out);
  if (groups.length === 0) {
    // The hand-written parser reads what it accepts; the grammar reads the rest (and errors).
    const fast = hand ? handMatch<T>(chunk, rule, state) : undefined;
    if (fast !== undefined) return fast;
    // (Declined: most often an error, which the grammar need not reach through the whole chunk.)
    const split = hand && rule === 'Chunk' ? splitChunk(chunk, state, fail) : undefined;
    if (split !== undefined) return split as T;
    const m = pyptoGrammar().match(chunk.out, rule);
    if (m.failed()) fail(chunk, m);
    return convert<T>(m, { ...state, map: chunk.map });
  }
  const holes = new Map<number, Expr>();
  let text = chunk.out;
  for (const g of groups) {
    for (const [s, e] of plainItems(text, g)) {
      const piece: Chunk = { out: text.slice(s, e), map: new ShiftedMap(chunk.map, s) as OffsetMap };
      const m = pyptoGrammar().match(piece.out, 'ExprItem');
      if (m.failed()) fail(piece, m);
      holes.set(s, convert<Expr>(m, { ...state, map: piece.map, holes, holeBase: s }));
      text = text.slice(0, s) + HOLE + HOLE_FILL.repeat(e - s - 1) + text.slice(e);
    }
  }
  const m = pyptoGrammar().match(text, rule);
  if (m.failed()) fail({ out: text, map: chunk.map }, m);
  return convert<T>(m, { ...state, map: chunk.map, holes, holeBase: 0 });
}
