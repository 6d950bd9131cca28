/**
 * Turns a failed Ohm match into one located `syntax-error` diagnostic: the rightmost failure
 * position mapped back to the original text, and a sentence built from the grammar's rule
 * descriptions (not a list of characters).
 */
import type * as ohm from 'ohm-js';
import { type Diagnostic, errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { type Chunk, OffsetMap } from './layout.js';

const EXPR_START = new Set([
  "'('",
  "'['",
  "'{'",
  'a number',
  'a string',
  "'True'",
  "'False'",
  "'None'",
  "'...'",
  'a name',
  "'-'",
  "'+'",
  "'~'",
  "'not'",
  "'lambda'",
  "'yield'",
  "'await'",
]);

const NOISE = new Set([
  "'.'",
  "'('",
  "'['",
  "','",
  "';'",
  "'='",
  "':='",
  "'**'",
  "'//'",
  "'<<'",
  "'>>'",
  "'<='",
  "'>='",
  "'=='",
  "'!='",
  "'<'",
  "'>'",
  "'+'",
  "'-'",
  "'*'",
  "'/'",
  "'%'",
  "'&'",
  "'|'",
  "'^'",
  "'@'",
  "'if'",
  "'is'",
  "'in'",
  "'or'",
  "'and'",
  "'not'",
  "'for'",
  "'async'",
  "':'",
]);

const STMT_START = new Set([
  "'return'",
  "'pass'",
  "'break'",
  "'continue'",
  "'if'",
  "'while'",
  "'for'",
  "'with'",
  "'del'",
  "'global'",
  "'nonlocal'",
  "'assert'",
  "'raise'",
  "'import'",
  "'from'",
  "'try'",
  "'except'",
  "'finally'",
  "'def'",
  "'class'",
  "'async'",
  "'@'",
  'a compoundStart',
]);

function quote(f: { getText(): string; getType(): string }): string {
  if (f.getType() === 'string') return `'${f.getText()}'`;
  return f.getText();
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The sentence describing what the parser expected at the failure. */
export function expectedMessage(match: ohm.MatchResult): string {
  const failures = (
    match as unknown as { getRightmostFailures(): { getText(): string; getType(): string; isFluffy(): boolean }[] }
  ).getRightmostFailures();
  // Guards written as ~(~x) in the grammar describe themselves as "not not ..."; drop them.
  const keep = (t: string): boolean => !t.startsWith('not ');
  let solid = failures
    .filter((f) => !f.isFluffy())
    .map(quote)
    .filter(keep);
  const all = failures.map(quote).filter(keep);
  if (solid.length === 1 && solid[0] === 'end of input') {
    // A statement could not start here.
    return all.includes('a name') || all.some((t) => STMT_START.has(t)) ? 'expected a statement' : 'unexpected text';
  }
  if (solid.length === 0) solid = all;
  let items = [...new Set(solid)];
  if (items.includes('a name') && items.includes('a number')) {
    items = items.filter((t) => !EXPR_START.has(t));
    items.unshift('an expression');
  }
  if (items.filter((t) => STMT_START.has(t)).length >= 2) {
    items = items.filter((t) => !STMT_START.has(t) && t !== 'an expression');
    items.unshift('a statement');
  }
  if (items.some((t) => !NOISE.has(t) && t !== 'end of input')) {
    const hasEol = items.includes('end of line');
    items = items.filter((t) => !NOISE.has(t) || (!hasEol && (t === "','" || t === "':'")));
  }
  items = items.filter((t) => t !== 'end of input' || items.length === 1);
  if (items.length === 0) return 'invalid syntax';
  return `expected ${joinOr(items)}`;
}

/** Span of the token at `pos` of the original text (a word, or one character). */
function tokenSpan(text: string, pos: number): { start: number; end: number } {
  let end = pos;
  while (end < text.length && /[A-Za-z0-9_]/.test(text[end]!)) end++;
  if (end === pos && pos < text.length && text[pos] !== '\n' && text[pos] !== '\r') end = pos + 1;
  return { start: pos, end };
}

/** The diagnostic for a failed match of `chunk`. */
export function syntaxDiagnostic(source: SourceText, chunk: Chunk, match: ohm.MatchResult): Diagnostic {
  const pos = (match as unknown as { getRightmostFailurePosition(): number }).getRightmostFailurePosition();
  const kind = OffsetMap.sentinelAt(chunk.out, pos);
  const orig = chunk.map.start(pos);
  if (kind === 'indent') {
    const t = tokenSpan(source.text, orig);
    return errorAt(source, t.start, t.end, 'syntax-error', 'unexpected indent');
  }
  let message: string;
  try {
    message = expectedMessage(match);
  } catch {
    // Defensive: Ohm could not describe its failures; the location is still right.
    message = 'invalid syntax';
  }
  if (kind === null) {
    const rest = chunk.out.slice(pos, pos + 5);
    if (/^(else|elif)\b/.test(rest) && message === 'expected a statement') {
      message = `'${/^(else|elif)/.exec(rest)![1]}' without a matching 'if' at this indentation`;
    }
    const t = tokenSpan(source.text, orig);
    return errorAt(source, t.start, t.end, 'syntax-error', message);
  }
  if ((kind === 'newline' || kind === 'end') && (message === 'expected a statement' || message === 'unexpected text')) {
    message = 'unexpected end of line';
  }
  return errorAt(source, orig, orig, 'syntax-error', message);
}
