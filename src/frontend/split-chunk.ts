/**
 * A chunk of statements the hand-written parser declines, read without giving the whole chunk to
 * the grammar: its statements are read by the hand-written parser one at a time, and the grammar
 * reads from the statement before the first one it declines to the end of the chunk. That
 * statement is usually an error, and the grammar stops there: an error late in a long function
 * body costs the grammar one or two statements instead of the whole body (and the grammar's
 * description of the error, a second match, likewise). The statements read are the ones the
 * grammar would read (the hand-written parser gives the grammar's IR for what it accepts), and
 * the error the same: located at the same place, with the same expectations — the grammar still
 * sees the statement before the failing one (whose trailing `elif` / `else` it tries there) and
 * all the text after it.
 */
import type * as ohm from 'ohm-js';
import type { Stmt } from '../ir/nodes.js';
import type { HandState } from './hand-expr.js';
import { handMatch } from './hand-stmt.js';
import { type Chunk, type OffsetMap, ShiftedMap } from './layout.js';
import { convert, pyptoGrammar, type SemState } from './semantics.js';

/** A clause line of a compound statement (it belongs to the statement before it). */
const CLAUSE = /^(?:elif|else|except|finally)(?![A-Za-z0-9_])/;

/** Where the statements at the base level of pre-tokenized text `out` start (its first line always). */
export function statementStarts(out: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let i = 0;
  const n = out.length;
  while (i < n) {
    // At a line's start: its INDENT / DEDENTs, then its content.
    let c = out.charCodeAt(i);
    while (c === 1 || c === 2) {
      depth += c === 1 ? 1 : -1;
      c = ++i < n ? out.charCodeAt(i) : -1;
    }
    if (i >= n) break;
    // (The text's first line starts a statement, whatever it holds: nothing is left out.)
    if (depth === 0 && (starts.length === 0 || !CLAUSE.test(out.slice(i, i + 9)))) starts.push(i);
    const nl = out.indexOf('\n', i);
    if (nl < 0) break;
    i = nl + 1;
  }
  return starts;
}

/**
 * The statements of `chunk` (rule `Chunk`) read as described above, or undefined when that
 * gains nothing (the hand-written parser declines one of the first two statements, or accepts
 * them all): the caller then gives the grammar the whole chunk. `fail` is called with the piece
 * the grammar could not match.
 */
export function splitChunk(
  chunk: Chunk,
  state: Omit<SemState, 'map' | 'holes' | 'holeBase'> & Pick<HandState, 'pool' | 'tokens'>,
  fail: (piece: Chunk, m: ohm.MatchResult) => never,
): Stmt[] | undefined {
  const out = chunk.out;
  const starts = statementStarts(out);
  if (starts.length < 3) return undefined;
  const stmts: Stmt[] = [];
  let before = 0; // stmts.length before the last statement read
  let k = 0;
  for (; k < starts.length; k++) {
    const s = starts[k]!;
    const e = k + 1 < starts.length ? starts[k + 1]! : out.length;
    const got = handMatch<Stmt[]>({ out: out.slice(s, e), map: new ShiftedMap(chunk.map, s) as OffsetMap }, 'Chunk', state);
    if (got === undefined) break;
    before = stmts.length;
    for (const st of got) stmts.push(st);
  }
  if (k < 2 || k === starts.length) return undefined;
  const from = starts[k - 1]!;
  stmts.length = before;
  const piece: Chunk = { out: out.slice(from), map: new ShiftedMap(chunk.map, from) as OffsetMap };
  const m = pyptoGrammar().match(piece.out, 'Chunk');
  if (m.failed()) fail(piece, m);
  for (const st of convert<Stmt[]>(m, { ...state, map: piece.map })) stmts.push(st);
  return stmts;
}
