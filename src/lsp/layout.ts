/**
 * "Format Document": the layout of a Python text made regular, every token kept. Statements are
 * indented by four spaces per block level (continuation lines moved with their statement, comment
 * lines with the code they sit beside), spaces between tokens as black and ruff write them (one
 * after a comma and around binary operators and assignments; none inside brackets, before a call's
 * or a subscript's bracket, around `.` and a keyword argument's `=`; two before an inline
 * comment), no trailing spaces, at most two blank lines in a row. Line breaks stay where they
 * are; string literals and comments are kept as written. The result is checked to hold the same
 * tokens and block structure as the text; a text that does not tokenize is left as it is.
 * (PyPTO's printed form, which also changes spellings, is `format.ts`: Canonicalize.)
 */

import { KEYWORDS as PYTHON_KEYWORDS } from '../frontend/hand-tokens.js';

type Kind = 'name' | 'number' | 'string' | 'op' | 'comment' | 'nl' | 'cont';

interface Token {
  kind: Kind;
  text: string;
  start: number;
}

const OPS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '**',
  '//',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ':',
  ',',
  ';',
  '.',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '=',
  '&',
  '|',
  '^',
  '~',
  '@',
  '!',
];

/** Python's keywords that are not values (True / False / None are operands for spacing). */
const KEYWORDS: ReadonlySet<string> = new Set([...PYTHON_KEYWORDS].filter((k) => k !== 'True' && k !== 'False' && k !== 'None'));

const NUMBER = /(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?)/y;
const NAME = /[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*/y;
const STRING_START = /(?:[rRbBuUfF]{1,2})?(?:'''|"""|'|")/y;

/** The tokens of `text`, or undefined when it holds something that is not a Python token (then it is not formatted). */
function tokenize(text: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  const at = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(text);
    return m && m[0] !== '' ? m[0] : undefined;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
      continue;
    }
    if (c === '\n' || c === '\r') {
      const nl = text.startsWith('\r\n', i) ? '\r\n' : c;
      out.push({ kind: 'nl', text: nl, start: i });
      i += nl.length;
      continue;
    }
    if (c === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r')) {
      out.push({ kind: 'cont', text: '\\', start: i });
      i++;
      continue;
    }
    if (c === '#') {
      let j = i;
      while (j < text.length && text[j] !== '\n' && text[j] !== '\r') j++;
      out.push({ kind: 'comment', text: text.slice(i, j).trimEnd(), start: i });
      i = j;
      continue;
    }
    const s = at(STRING_START);
    if (s !== undefined) {
      const quote = s.replace(/^[rRbBuUfF]+/, '');
      let j = i + s.length;
      for (;;) {
        if (j >= text.length) return undefined;
        const ch = text[j]!;
        if (ch === '\\') {
          // (Raw strings too: a backslash keeps the quote after it in the string.)
          j += text.startsWith('\r\n', j + 1) ? 3 : 2;
          continue;
        }
        if (quote.length === 1 && (ch === '\n' || ch === '\r')) return undefined;
        if (text.startsWith(quote, j)) {
          j += quote.length;
          break;
        }
        j++;
      }
      out.push({ kind: 'string', text: text.slice(i, j), start: i });
      i = j;
      continue;
    }
    const n = /\d/.test(c) || (c === '.' && /\d/.test(text[i + 1] ?? '')) ? at(NUMBER) : undefined;
    if (n !== undefined) {
      out.push({ kind: 'number', text: n, start: i });
      i += n.length;
      continue;
    }
    const w = at(NAME);
    if (w !== undefined) {
      out.push({ kind: 'name', text: w, start: i });
      i += w.length;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op === undefined) return undefined;
    out.push({ kind: 'op', text: op, start: i });
    i += op.length;
  }
  return out;
}

/** The width of an indentation (a tab to the next multiple of 8, as Python reads it). */
function width(indent: string): number {
  let w = 0;
  for (const c of indent) w = c === '\t' ? (Math.floor(w / 8) + 1) * 8 : w + 1;
  return w;
}

const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);
const UNARY_ABLE = new Set(['-', '+', '~', '*', '**']);

/** Per first token of a physical line (by token index): its new indentation. Undefined: inconsistent indentation. */
function indentation(text: string, tokens: readonly Token[]): { indents: Map<number, string>; levels: number[] } | undefined {
  const indents = new Map<number, string>();
  const levels: number[] = [];
  const stack = [0];
  let depth = 0;
  let cont = false;
  let delta = 0;
  let lineStart = 0;
  const code: { token: number; w: number; indent: string }[] = [];
  const comments: { token: number; w: number; orig: string }[] = [];
  let first = true;
  /** Whether the last statement line ended with `:` (a block follows). */
  let opensBlock = false;
  let last: Token | undefined;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'nl') {
      cont = tokens[k - 1]?.kind === 'cont';
      if (depth === 0 && !cont && last !== undefined) opensBlock = last.kind === 'op' && last.text === ':';
      lineStart = t.start + t.text.length;
      first = true;
      continue;
    }
    if (first) {
      first = false;
      const orig = text.slice(lineStart, t.start);
      // Tabs: Python's reading of mixed indentation is not one width; such a text is left as it is.
      if (orig.includes('\t')) return undefined;
      const w = width(orig);
      if (depth === 0 && !cont) {
        if (t.kind === 'comment') comments.push({ token: k, w, orig });
        else {
          if (w > stack[stack.length - 1]!) {
            // Python accepts a deeper line only after a block's `:` (else: unexpected indent).
            if (!opensBlock) return undefined;
            stack.push(w);
          } else {
            while (w < stack[stack.length - 1]!) stack.pop();
            if (w !== stack[stack.length - 1]) return undefined;
          }
          const indent = '    '.repeat(stack.length - 1);
          delta = indent.length - w;
          levels.push(stack.length - 1);
          indents.set(k, indent);
          code.push({ token: k, w, indent });
        }
      } else {
        indents.set(k, ' '.repeat(Math.max(0, w + delta)));
      }
    }
    if (t.kind !== 'comment') last = t;
    if (t.kind === 'op' && OPEN.has(t.text)) depth++;
    else if (t.kind === 'op' && CLOSE.has(t.text)) depth = Math.max(0, depth - 1);
  }
  // A comment line goes with the code line beside it that it is aligned with (the next, else the previous).
  let c = 0;
  for (const m of comments) {
    while (c < code.length && code[c]!.token < m.token) c++;
    const next = code[c];
    const prev = code[c - 1];
    indents.set(m.token, next && next.w === m.w ? next.indent : prev && prev.w === m.w ? prev.indent : m.w === 0 ? '' : m.orig);
  }
  return { indents, levels };
}

interface Bracket {
  ch: string;
  /** A `:` seen since the bracket opened or its last comma (an annotation: `x: int = 3`). */
  colon: boolean;
}

/** The space between two tokens on one line. */
function space(prev: Token, prevUnary: boolean, t: Token, top: Bracket | undefined, gap: string): string {
  const p = prev.text;
  const op = (x: Token, ...texts: string[]): boolean => x.kind === 'op' && texts.includes(x.text);
  if (t.kind === 'comment') return '  ';
  if (t.kind === 'cont') return ' ';
  if (op(t, ':') && op(prev, ',')) return ' ';
  if (op(t, ',', ';', ')', ']', '}', ':')) return '';
  if (op(prev, '(', '[', '{', '.') || op(t, '.')) {
    // `from . import x`, `import .x` keep their space.
    return op(t, '.') && prev.kind === 'name' && KEYWORDS.has(p) ? ' ' : '';
  }
  if (prevUnary) return '';
  // A power keeps its operands hugged or spaced as written (black hugs simple ones).
  if (op(t, '**') || op(prev, '**')) return gap;
  if (op(prev, ',', ';')) return ' ';
  if (op(prev, ':')) return top?.ch === '[' ? '' : ' ';
  const kwarg = top?.ch === '(' && !top.colon;
  if (op(t, '=') || op(prev, '=')) return kwarg ? '' : ' ';
  if (op(t, '(', '['))
    return prev.kind === 'name' ? (KEYWORDS.has(p) ? ' ' : '') : prev.kind === 'string' || op(prev, ')', ']', '}') ? '' : ' ';
  return ' ';
}

/** Whether token `t` (after `prev`, or first of its statement when prev is null) is a unary operator or a decorator's `@`. */
function unary(prev: Token | null, t: Token): boolean {
  if (t.kind !== 'op') return false;
  if (t.text === '@') return prev === null;
  if (!UNARY_ABLE.has(t.text)) return false;
  if (prev === null) return true;
  if (prev.kind === 'name') return KEYWORDS.has(prev.text);
  return prev.kind === 'op' && !CLOSE.has(prev.text);
}

/** The tokens as compared before and after formatting (comments by text, line breaks and continuations kept). */
const signature = (ts: readonly Token[]): string =>
  ts
    .map((t) => `${t.kind}:${t.text}`)
    .filter((s) => !s.startsWith('nl:'))
    .join('\u0000');

/** `text` with its layout made regular (see above), or undefined when it does not tokenize or its indentation is inconsistent. */
export function layoutText(text: string): string | undefined {
  const tokens = tokenize(text);
  if (!tokens) return undefined;
  const ind = indentation(text, tokens);
  if (!ind) return undefined;
  let out = '';
  let prev: Token | null = null;
  let prevUnary = false;
  const brackets: Bracket[] = [];
  let blank = 0;
  let lineEmpty = true;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'nl') {
      blank = lineEmpty ? blank + 1 : 0;
      // At most two blank lines in a row; none at the start of the file.
      if (!lineEmpty || (blank <= 2 && out !== '')) out += t.text;
      lineEmpty = true;
      const cont = tokens[k - 1]?.kind === 'cont';
      if (brackets.length === 0 && !cont) {
        prev = null;
        prevUnary = false;
      }
      continue;
    }
    const indent = ind.indents.get(k);
    if (indent !== undefined) out += indent;
    else if (prev !== null) {
      const written = k > 0 && tokens[k - 1]!.kind !== 'nl' && tokens[k - 1]!.start + tokens[k - 1]!.text.length < t.start ? ' ' : '';
      out += space(prev, prevUnary, t, brackets[brackets.length - 1], written);
    }
    lineEmpty = false;
    out += t.text;
    if (t.kind === 'comment') continue;
    const u = unary(prev, t);
    if (t.kind === 'op') {
      if (OPEN.has(t.text)) brackets.push({ ch: t.text, colon: false });
      else if (CLOSE.has(t.text)) brackets.pop();
      else if (t.text === ',' && brackets.length > 0) brackets[brackets.length - 1]!.colon = false;
      else if (t.text === ':' && brackets.length > 0) brackets[brackets.length - 1]!.colon = true;
    }
    prev = t;
    prevUnary = u;
  }
  // No blank lines at the end: the text ends with one line break when it had one.
  out = out.replace(/(?:\r\n|\r|\n)+$/, '');
  const end = /(\r\n|\r|\n)+$/.exec(text);
  if (end) out += end[1];
  // Never a change of tokens or of block structure.
  const again = tokenize(out);
  if (!again || signature(again) !== signature(tokens)) return undefined;
  const ind2 = indentation(out, again);
  if (!ind2 || ind2.levels.join(',') !== ind.levels.join(',')) return undefined;
  return out;
}
