/**
 * Logical-line scanner: one linear, string-aware pass over a whole Python module that splits
 * it into logical lines (physical lines joined by open brackets or backslash continuations),
 * skipping blank and comment-only lines. It understands just enough Python to do that:
 * comments, string literals (prefixes, escapes, triple quotes spanning lines) and bracket
 * depth. Nothing else is interpreted, so a module full of arbitrary Python scans fine; the
 * grammar only ever sees the lines of `@pl.program` classes.
 *
 * Per logical line it records where its content starts and ends in the original text (the end
 * excludes a trailing comment and trailing whitespace), its indentation width, whether it
 * needs cleaning before the grammar sees it (an interior comment, a folded newline or a
 * backslash continuation), and lexical errors (tab in the indentation, unterminated string,
 * bracket never closed) to be reported only if the line belongs to a program.
 */

/** Python's limit of nested brackets in one logical line (CPython's tokenizer MAXLEVEL). */
export const MAX_NESTING = 200;

/** The line needs cleaning (interior comment, newline inside brackets, backslash continuation). */
import { BSLASH, CR, DQ, FF, HASH, isWordChar, LF, newlineAt, SP, SQ, TAB } from './chars.js';
export const FLAG_DIRTY = 1;
/** The line has a lexical error (see `LineTable.errors`). */
export const FLAG_ERROR = 2;

export interface LineError {
  code: string;
  start: number;
  end: number;
  message: string;
}

export interface LineTable {
  count: number;
  /** Offset of the first content character. */
  start: Int32Array;
  /** Offset after the last content character (no trailing comment or whitespace). */
  end: Int32Array;
  /** Indentation width of the line as Python measures it (tabs to the next multiple of 8, a form feed resets it; see scanLines). */
  indent: Int32Array;
  flags: Uint8Array;
  /** Lexical errors by logical line index (first error of the line). */
  errors: Map<number, LineError>;
  /** Offset of every comment's `#` (outside strings), ascending. */
  comments: Int32Array;
}

function isStringPrefix(text: string, start: number, end: number): boolean {
  const len = end - start;
  if (len < 1 || len > 2) return false;
  const w = text.slice(start, end).toLowerCase();
  return w === 'r' || w === 'u' || w === 'b' || w === 'f' || w === 'br' || w === 'rb' || w === 'fr' || w === 'rf';
}

/**
 * Skips a string literal whose opening quote is at `i`. Returns the offset after it; for an
 * unterminated literal returns -(offset where it stops) - 1 (a single-quoted one stops before
 * the newline, a triple-quoted one at the end of the text).
 */
export function skipString(text: string, i: number): number {
  const n = text.length;
  const q = text.charCodeAt(i);
  const triple = text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q;
  let j = i + (triple ? 3 : 1);
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === BSLASH) {
      // An escaped character, or a backslash-newline (CRLF is one newline).
      j += 1 + Math.max(1, newlineAt(text, j + 1));
      continue;
    }
    if (triple) {
      if (c === q && text.charCodeAt(j + 1) === q && text.charCodeAt(j + 2) === q) return j + 3;
    } else {
      if (c === q) return j + 1;
      if (c === LF || c === CR) return -j - 1;
    }
    j++;
  }
  return -n - 1;
}

/**
 * Offset of the newline ending the physical line at `i` (the text's length when none does).
 * `lf`: the text has no CR, so a native search for LF finds it.
 */
function lineRest(text: string, i: number, lf: boolean): number {
  if (lf) {
    const j = text.indexOf('\n', i);
    return j < 0 ? text.length : j;
  }
  const n = text.length;
  while (i < n && newlineAt(text, i) === 0) i++;
  return i;
}

class Grow {
  a: Int32Array;
  n = 0;
  constructor(cap: number) {
    this.a = new Int32Array(Math.max(16, cap));
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Int32Array {
    return this.a.subarray(0, this.n);
  }
}

/** Splits `text` into logical lines. Linear in the text length. */
export function scanLines(text: string): LineTable {
  const n = text.length;
  const guess = Math.max(16, (n / 40) | 0);
  const starts = new Grow(guess);
  const ends = new Grow(guess);
  const indents = new Grow(guess);
  let flags = new Uint8Array(guess);
  const errors = new Map<number, LineError>();
  const comments = new Grow(16);
  let count = 0;

  const lfOnly = !text.includes('\r');
  /** A run of characters the line scan needs not look at one by one. */
  const plain = /[^\r\n \t\f#\\"'()[\]{}]+/y;
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;

  while (i < n) {
    // At the start of a physical line: measure the indentation as CPython's tokenizer does. A
    // form feed resets the column; a backslash continuation joins the next physical line to
    // the indentation, and the column at the first one that is not at column 0 is the
    // indentation of the line (`    \` then `  x = 1` is `x = 1` indented by 4).
    let w = 0;
    let cont = 0;
    let tabAt = -1;
    for (;;) {
      const c = i < n ? text.charCodeAt(i) : -1;
      if (c === SP) w++;
      else if (c === TAB) {
        if (tabAt < 0) tabAt = i;
        w = (((w / 8) | 0) + 1) * 8;
      } else if (c === FF) w = 0;
      else if (c === BSLASH && newlineAt(text, i + 1) > 0) {
        if (cont === 0) cont = w;
        i += 1 + newlineAt(text, i + 1);
        continue;
      } else break;
      i++;
    }
    if (cont > 0) w = cont;
    if (i >= n) break;
    let c = text.charCodeAt(i);
    // (A line of white space, or continued into one, is blank; so is a comment line.)
    const blank = c === LF || c === CR ? newlineAt(text, i) : 0;
    if (blank > 0) {
      i += blank;
      continue;
    }
    if (c === HASH) {
      comments.push(i);
      i = lineRest(text, i, lfOnly);
      i += newlineAt(text, i);
      continue;
    }

    // A logical line starts here.
    const line = count++;
    const start = i;
    let lastEnd = i;
    let dirty = false;
    let error: LineError | null =
      tabAt >= 0 ? { code: 'tab-indent', start: tabAt, end: tabAt + 1, message: 'indentation uses a tab; ptolog needs spaces' } : null;
    // Open brackets of the line: how deep, and where the outermost open one is (an array
    // emptied per line and grown by push costs a reallocation per line).
    let depth = 0;
    let outermost = -1;
    // Runs of characters that need no decision (all but newlines, spaces, `#`, `\\`, quotes and
    // brackets) are skipped by a native search: this loop runs over the whole module once,
    // mostly before the JIT has compiled it.
    while (i < n) {
      c = text.charCodeAt(i);
      if ((c >= 42 && c <= 90) || (c >= 94 && c <= 122) || c === 124 || c > 125 || c === 33 || (c >= 36 && c <= 38)) {
        const from = i;
        plain.lastIndex = i;
        plain.test(text);
        i = plain.lastIndex;
        lastEnd = i;
        const q = i < n ? text.charCodeAt(i) : -1;
        if (q === DQ || q === SQ) {
          // A string prefix: the word right before the quote.
          let ws = i;
          while (ws > from && isWordChar(text.charCodeAt(ws - 1))) ws--;
          if (isStringPrefix(text, ws, i)) {
            const r = skipString(text, i);
            if (r < 0) {
              if (!error) error = { code: 'syntax-error', start: ws, end: ws + 1, message: 'this string literal is never closed' };
              i = -r - 1;
            } else i = r;
            lastEnd = i;
          }
        }
        continue;
      }
      if (c === LF || c === CR) {
        const eol = newlineAt(text, i);
        if (depth > 0) {
          dirty = true;
          i += eol;
          continue;
        }
        i += eol;
        break;
      }
      if (c === SP || c === TAB || c === FF) {
        i++;
        continue;
      }
      if (c === HASH) {
        comments.push(i);
        if (depth > 0) dirty = true;
        i = lineRest(text, i, lfOnly);
        continue;
      }
      if (c === BSLASH) {
        const d = newlineAt(text, i + 1);
        if (d > 0) {
          dirty = true;
          i += 1 + d;
          continue;
        }
        i++;
        lastEnd = i;
        continue;
      }
      if (c === DQ || c === SQ) {
        const r = skipString(text, i);
        if (r < 0) {
          const stop = -r - 1;
          if (!error) error = { code: 'syntax-error', start: i, end: i + 1, message: 'this string literal is never closed' };
          i = stop;
        } else i = r;
        lastEnd = i;
        continue;
      }
      if (c === 40 || c === 91 || c === 123) {
        if (depth === 0) outermost = i;
        depth++;
        if (depth > MAX_NESTING && (!error || error.code === 'tab-indent')) {
          error = {
            code: 'nesting-too-deep',
            start: i,
            end: i + 1,
            message: `too many nested parentheses: Python allows ${MAX_NESTING} levels`,
          };
        }
      } else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
      i++;
      lastEnd = i;
    }
    if (depth > 0 && !error) {
      const b = outermost;
      error = { code: 'syntax-error', start: b, end: b + 1, message: `'${text[b]}' is never closed` };
    }
    starts.push(start);
    ends.push(lastEnd);
    indents.push(w);
    if (line >= flags.length) {
      const f = new Uint8Array(flags.length * 2);
      f.set(flags);
      flags = f;
    }
    flags[line] = (dirty ? FLAG_DIRTY : 0) | (error ? FLAG_ERROR : 0);
    if (error) errors.set(line, error);
  }
  return {
    count,
    start: starts.done(),
    end: ends.done(),
    indent: indents.done(),
    flags: flags.subarray(0, count),
    errors,
    comments: comments.done(),
  };
}

/** True when the logical line's text starts with `word` followed by a non-identifier character. */
export function lineStartsWithWord(text: string, table: LineTable, line: number, word: string): boolean {
  const s = table.start[line]!;
  if (!text.startsWith(word, s)) return false;
  const e = s + word.length;
  return e >= table.end[line]! || !isWordChar(text.charCodeAt(e));
}
