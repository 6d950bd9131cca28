/**
 * Ground facts on lines of their own, read without the grammar: the op catalog is about 2,500
 * of them, 1.6 s through Ohm and a few milliseconds here. Before → after:
 *
 *     op_entry("tile.load", "pl.tile.load", "Tile").      →  Clause op_entry(...) (isFact), and
 *     r(X) :- a(X).                                           the range of this line, for the grammar
 *
 * The rest of the file is read by the grammar in the pieces between the taken facts, so the
 * grammar never steps over the facts' characters (Ohm spends ~10 µs on each, blank or not).
 *
 * Only a line that starts a statement (the previous statement ended with `.`, or was a complete
 * directive) and holds exactly `name(arg, ...).` — each arg a string literal or an integer, an
 * optional `//` comment after — is taken; anything else stays for the grammar, so a fact split
 * over lines or one with an expression is read the usual way. Locations are those the grammar
 * gives: the clause and atom from the name to `.` / `)`, each term its own characters.
 */

import type { SourceText } from '../../report/source.js';
import type { Clause, Term } from './ast.js';

/** The facts taken from the text, and the ranges of text left for the grammar (in order; no blank or comment lines between statements). */
export interface FastFacts {
  clauses: Clause[];
  /** [start, end) of each run of lines between taken facts that holds more than spaces and comments. */
  rest: [number, number][];
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /-?[0-9]+(?![A-Za-z0-9_])/y;
const STRING = /"(?:[^"\\\n]|\\[^\n])*"/y;
const SPACES = /[ \t]*/y;

/** `\n`, `\t`, `\r` and `\x` → x, as the grammar's string semantics unescape. */
export function unescapeString(body: string): string {
  return body.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c));
}

/**
 * Characters of skippable lines (facts, blank and comment lines between statements) a run needs
 * before it is taken out of the grammar's text: each piece the grammar reads costs a match of
 * its own (~1 ms), so short runs between rules stay with the grammar, facts included.
 */
export const MIN_RUN = 2048;

/** Takes the one-line ground facts out of a rule file (see the file comment). */
export function takeFastFacts(source: SourceText, minRun: number = MIN_RUN): FastFacts {
  const text = source.text;
  const clauses: Clause[] = [];
  // Runs of consecutive skippable lines: [start, end, facts].
  const runs: { start: number; end: number; facts: Clause[] }[] = [];
  let run: { start: number; end: number; facts: Clause[] } | undefined;
  let atStatementStart = true;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    const code = stripComment(line).trim();
    let fact: Clause | null = null;
    // A blank or comment line between statements is no piece of one: the grammar need not read it.
    const skippable =
      atStatementStart &&
      ((code === '' && !line.includes('"')) || (code !== '' && (fact = readFact(source, start, start + line.length)) !== null));
    if (skippable) {
      run ??= { start, end: start, facts: [] };
      run.end = start + line.length;
      if (fact) run.facts.push(fact);
    } else {
      if (run) runs.push(run);
      run = undefined;
      if (code !== '') atStatementStart = endsStatement(code);
    }
    start = end + 1;
  }
  if (run) runs.push(run);
  const rest: [number, number][] = [];
  let at = 0;
  for (const r of runs) {
    if (r.end - r.start < minRun) continue;
    clauses.push(...r.facts);
    if (r.start > at && !onlyComments(text.slice(at, r.start))) rest.push([at, r.start]);
    at = r.end;
  }
  if (at < text.length && !onlyComments(text.slice(at))) rest.push([at, text.length]);
  if (rest.length === 0 && clauses.length === 0) rest.push([0, text.length]);
  return { clauses, rest };
}

/** Whether a piece of text holds nothing but spaces, line ends and `//` comments. */
function onlyComments(piece: string): boolean {
  return piece.split('\n').every((l) => {
    const t = l.trim();
    return t === '' || t.startsWith('//');
  });
}

/** The line without a trailing `//` comment (a `//` inside a string keeps the line unsure: it then ends no statement). */
function stripComment(line: string): string {
  const i = line.indexOf('//');
  return i < 0 ? line : line.slice(0, i);
}

/** Whether a line of code the grammar reads leaves the next line at the start of a statement. */
function endsStatement(code: string): boolean {
  if (code.endsWith('.')) return true;
  if (!(code.startsWith('.') || code.startsWith('#')) || code.endsWith(',')) return false;
  let depth = 0;
  for (const c of code) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
  return depth === 0;
}

/** The fact `name(arg, ...).` filling text[from, to) (spaces and a comment around it), or null. */
function readFact(source: SourceText, from: number, to: number): Clause | null {
  const text = source.text;
  const at = (re: RegExp, i: number): number => {
    re.lastIndex = i;
    return re.test(text) && re.lastIndex <= to ? re.lastIndex : -1;
  };
  const nameStart = at(SPACES, from);
  const nameEnd = at(NAME, nameStart);
  if (nameEnd < 0 || text[nameEnd] !== '(') return null;
  const name = text.slice(nameStart, nameEnd);
  if (name === '_') return null;
  const loc = (start: number, end: number) => ({ source, start, end });
  const args: Term[] = [];
  let i = nameEnd + 1;
  for (;;) {
    i = at(SPACES, i);
    if (text[i] === '"') {
      const e = at(STRING, i);
      if (e < 0) return null;
      args.push({ kind: 'str', value: unescapeString(text.slice(i + 1, e - 1)), loc: loc(i, e) });
      i = e;
    } else {
      const e = at(NUMBER, i);
      if (e < 0) return null;
      args.push({ kind: 'num', value: BigInt(text.slice(i, e)), loc: loc(i, e) });
      i = e;
    }
    i = at(SPACES, i);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] !== ')') return null;
    break;
  }
  const atomEnd = i + 1;
  const dot = at(SPACES, atomEnd);
  if (text[dot] !== '.') return null;
  const rest = text.slice(dot + 1, to);
  if (!/^[ \t]*(?:\/\/.*)?$/.test(rest)) return null;
  const atom = { rel: name, args, loc: loc(nameStart, atomEnd), nameLoc: loc(nameStart, nameEnd) };
  return { head: atom, body: [], loc: loc(nameStart, dot + 1), isFact: true };
}
