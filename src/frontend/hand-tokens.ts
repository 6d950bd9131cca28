/**
 * Tokenizer of the DSL parser (dsl-parser.ts). It reads pre-tokenized text (layout.ts: "\n"
 * ends a logical line, U+0001 / U+0002 are INDENT / DEDENT, comments blanked) and splits it
 * into names,
 * numbers (any run of number characters, spelling checked later), string literals with their
 * prefix, operators. Anything it does not know (a character beyond ASCII outside a name, a lone `!` or `$`, an
 * unterminated string, a name glued to a quote that is not a string prefix) is a T_ERROR token,
 * where the parser reports a syntax error.
 */
import type { InternPool } from '../ir/compact.js';

export const T_NAME = 1;
export const T_NUMBER = 2;
export const T_STRING = 3;
export const T_OP = 4;
export const T_NEWLINE = 5;
export const T_INDENT = 6;
export const T_DEDENT = 7;
export const T_END = 8;
/** A character or name no token starts with (a lone `!` or `$`, a name glued to a quote): the parser stops at it. */
export const T_ERROR = 9;
/** A name spelled beyond ASCII that NFKC-normalises to a keyword (`ｉｆ`): a name, not the keyword (Python reads it so). */
export const T_KWNAME = 10;

/** The tokens of one text as parallel arrays; `text` holds the spelling of names and operators. */
export interface Tokens {
  kind: number[];
  start: number[];
  end: number[];
  text: string[];
}

/** Characters that form a two-character operator with a following '=' (`<=`, `==`, `+=`, `:=`, ...). */
const BEFORE_EQ = new Set([60, 62, 61, 33, 43, 45, 42, 47, 37, 38, 124, 94, 64, 58]);

/**
 * Length of the operator starting with character codes c, c1, c2 when it is longer than one
 * character (longest match: `**=`, `//=`, `<<=`, `>>=`, `...`, `**`, `//`, `<<`, `>>`, `->`,
 * and `<=`, `==`, `+=`, `:=`, ...), else 1.
 */
function opLength(c: number, c1: number, c2: number): number {
  if ((c === 42 || c === 47 || c === 60 || c === 62) && c1 === c) return c2 === 61 ? 3 : 2;
  if (c === 46) return c1 === 46 && c2 === 46 ? 3 : 1;
  if (c1 === 61 && BEFORE_EQ.has(c)) return 2;
  if (c === 45 && c1 === 62) return 2;
  return 1;
}
const ONE = '()[]{},:;.=+-*/%&|^~<>@';

function isIdChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A string prefix Python accepts: one of rRuUbBfF, optionally followed by one of rRbBfF. */
function isStrPrefix(w: string): boolean {
  if (w.length === 0 || w.length > 2) return false;
  if (!'rRuUbBfF'.includes(w[0]!)) return false;
  return w.length === 1 || 'rRbBfF'.includes(w[1]!);
}

/** End of the string body starting with a quote at `i` (grammar's strBody), or -1 when unterminated. */
function stringEnd(s: string, i: number): number {
  const q = s.charCodeAt(i);
  const triple = s.charCodeAt(i + 1) === q && s.charCodeAt(i + 2) === q;
  let j = triple ? i + 3 : i + 1;
  const n = s.length;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c === 92) {
      // strEsc: a backslash and the next character (a CRLF counts as one).
      if (j + 1 >= n) return -1;
      j += s.charCodeAt(j + 1) === 13 && s.charCodeAt(j + 2) === 10 ? 3 : 2;
      continue;
    }
    if (c === q) {
      if (!triple) return j + 1;
      if (s.charCodeAt(j + 1) === q && s.charCodeAt(j + 2) === q) return j + 3;
    } else if (!triple && (c === 10 || c === 13)) return -1;
    j++;
  }
  return -1;
}

/** End of a number token (any run of number characters, the spelling checked later) starting at `i` (a digit, or a '.' before a digit). */
function numberEnd(s: string, i: number): number {
  let j = i + 1;
  const n = s.length;
  while (j < n) {
    const c = s.charCodeAt(j);
    if ((c === 101 || c === 69) && (s.charCodeAt(j + 1) === 43 || s.charCodeAt(j + 1) === 45)) j += 2;
    else if (isIdChar(c)) j++;
    else if (c === 46 && s.charCodeAt(j + 1) !== 46) j++;
    else break;
  }
  return j;
}

/** Python's keywords: never a name. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'False',
  'None',
  'True',
  'and',
  'assert',
  'async',
  'await',
  'as',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

const XID_START = /\p{XID_Start}/uy;
const XID_CONTINUE = /\p{XID_Continue}/uy;

/** True when the character at `i` (not ASCII) can start a Python name (XID_Start, PEP 3131). */
function startsName(s: string, i: number): boolean {
  XID_START.lastIndex = i;
  return XID_START.test(s);
}

/**
 * End of the name characters from `i` on: ASCII ones and XID_Continue ones beyond ASCII (PEP
 * 3131), stopping before a character Python does not take in a name ("invalid character").
 */
function nameCharsEnd(s: string, i: number): number {
  const n = s.length;
  let j = i;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (isIdChar(c)) j++;
    else if (c < 128) break;
    else {
      XID_CONTINUE.lastIndex = j;
      if (!XID_CONTINUE.test(s)) break;
      j = XID_CONTINUE.lastIndex;
    }
  }
  return j;
}

/** True when a token of kind `k` spelled `w` can end an operand (a name, a literal, a closing bracket). */
function endsOperand(k: number, w: string): boolean {
  return (
    (k === T_NAME && (!KEYWORDS.has(w) || w === 'True' || w === 'False' || w === 'None')) ||
    k === T_NUMBER ||
    k === T_STRING ||
    k === T_KWNAME ||
    (k === T_OP && (w === ')' || w === ']' || w === '}'))
  );
}

/** Empty token arrays, for `tokenize` to fill (and refill: one set serves every chunk of a parse). */
export function tokenBuffer(): Tokens {
  return { kind: [], start: [], end: [], text: [] };
}

/**
 * The tokens of pre-tokenized text `s` (what is no token is a T_ERROR token). Names and operators are spelled with `pool`'s shared strings when one is given.
 * `into`: arrays to overwrite (returned filled): a chunk's tokens then allocate nothing; the
 * entries after the T_END token are left from an earlier text and never read.
 */
export function tokenize(s: string, pool?: InternPool, into: Tokens = tokenBuffer()): Tokens {
  const { kind, start, end, text } = into;
  // Tokens are written at index t (never past an array's length: the arrays stay packed), and
  // no read past the end of `s` (an out-of-bounds read deoptimizes this function).
  let t = 0;
  const n = s.length;
  const at = (k: number): number => (k < n ? s.charCodeAt(k) : -1);
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9 || c === 12 || c === 13) {
      i++;
      continue;
    }
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c > 127 && startsName(s, i))) {
      // A name: [A-Za-z_][A-Za-z0-9_]* (isIdChar written inline: no call per character), or
      // with characters beyond ASCII as Python takes them (PEP 3131, see nameCharsEnd).
      let j = i + 1;
      let d = j < n ? s.charCodeAt(j) : -1;
      while ((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57) || d === 95) {
        j++;
        d = j < n ? s.charCodeAt(j) : -1;
      }
      if (c > 127 || d > 127) {
        // (Not ASCII: the name as Python reads it, NFKC-normalised; a character Python does
        // not take in a name ends it: the parser reports it.)
        j = nameCharsEnd(s, c > 127 ? i : j);
        d = j < n ? s.charCodeAt(j) : -1;
        const name = s.slice(i, j).normalize('NFKC');
        kind[t] = d === 34 || d === 39 || j === i ? T_ERROR : KEYWORDS.has(name) ? T_KWNAME : T_NAME;
        if (j === i) j = i + 1;
        start[t] = i;
        end[t] = j;
        text[t] = pool ? pool.str(name) : name;
        t++;
        i = j;
        continue;
      }
      const q = d;
      if (q === 34 || q === 39) {
        const w = s.slice(i, j);
        const e = isStrPrefix(w) ? stringEnd(s, j) : -1;
        if (e < 0) {
          kind[t] = T_ERROR;
          start[t] = i;
          end[t] = j;
          text[t] = '';
          t++;
          i = isStrPrefix(w) ? n : j;
          continue;
        }
        kind[t] = T_STRING;
        start[t] = i;
        end[t] = e;
        text[t] = '';
        t++;
        i = e;
        continue;
      }
      kind[t] = T_NAME;
      start[t] = i;
      end[t] = j;
      text[t] = pool ? pool.str(s.slice(i, j)) : s.slice(i, j);
      t++;
      i = j;
      continue;
    }
    // (A '.' after an operand is an attribute's, even before a digit: `x.0` is an error at `0`.)
    if (isDigit(c) || (c === 46 && isDigit(at(i + 1)) && !(t > 0 && endsOperand(kind[t - 1]!, text[t - 1]!)))) {
      const j = numberEnd(s, i);
      kind[t] = T_NUMBER;
      start[t] = i;
      end[t] = j;
      text[t] = '';
      t++;
      i = j;
      continue;
    }
    if (c === 34 || c === 39) {
      const e0 = stringEnd(s, i);
      const e = e0 < 0 ? n : e0;
      kind[t] = e0 < 0 ? T_ERROR : T_STRING;
      start[t] = i;
      end[t] = e;
      text[t] = '';
      t++;
      i = e;
      continue;
    }
    if (c === 10) {
      kind[t] = T_NEWLINE;
      start[t] = i;
      end[t] = i + 1;
      text[t] = '';
      t++;
      i++;
      continue;
    }
    if (c === 1 || c === 2) {
      kind[t] = c === 1 ? T_INDENT : T_DEDENT;
      start[t] = i;
      end[t] = i + 1;
      text[t] = '';
      t++;
      i++;
      continue;
    }
    const len = opLength(c, at(i + 1), at(i + 2));
    if (len > 1) {
      kind[t] = T_OP;
      start[t] = i;
      end[t] = i + len;
      text[t] = pool ? pool.str(s.slice(i, i + len)) : s.slice(i, i + len);
      t++;
      i += len;
      continue;
    }
    if (ONE.includes(s[i]!)) {
      kind[t] = T_OP;
      start[t] = i;
      end[t] = i + 1;
      text[t] = s[i]!;
      t++;
      i++;
      continue;
    }
    kind[t] = T_ERROR;
    start[t] = i;
    end[t] = i + 1;
    text[t] = '';
    t++;
    i++;
  }
  kind[t] = T_END;
  start[t] = n;
  end[t] = n;
  text[t] = '';
  t++;
  return into;
}
