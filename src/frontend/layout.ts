/**
 * The layout pre-tokenizer: turns a run of logical lines into the text the grammar reads,
 * with Python's layout made explicit by sentinel characters, plus an offset map back into the
 * original text.
 *
 * - every logical line ends with NEWLINE ("\n");
 * - a line indented deeper than the one before starts with INDENT; a shallower one with one
 *   DEDENT per closed level (a level it does not return to exactly is an
 *   `inconsistent-dedent` error); at the end of the run the open levels are closed;
 * - comments become spaces, newlines inside brackets and backslash continuations become
 *   spaces (same length, so a line's content maps to the original one to one);
 * - only lines with content exist here (the scanner dropped blank and comment-only lines),
 *   so blank lines and comments never produce INDENT/DEDENT.
 */

import { failAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { BSLASH, CR, DQ, HASH, isWordChar, LF, SQ } from './chars.js';
import { FLAG_DIRTY, type LineTable, skipString } from './scan.js';

export const NEWLINE = '\n';
// (Characters below U+0100: a pre-tokenized text, and every name sliced from it, is then held
// one byte a character, as V8 holds the source; a file's patched text is too.)
export const INDENT = '\x01';
export const DEDENT = '\x02';

/**
 * Maps offsets of the pre-tokenized text back to the original text. Content characters map
 * one to one; a sentinel maps to the place it stands for (INDENT/DEDENT: the first character of
 * the line; NEWLINE: the end of the line's content).
 */
export class OffsetMap {
  /** Segment starts in the pre-tokenized text (ascending). */
  private readonly outStarts: number[] = [];
  /** Original offset of each segment's first character. */
  private readonly origStarts: number[] = [];
  /** Segment length for content segments, 0 for a sentinel. */
  private readonly lens: number[] = [];

  add(outStart: number, origStart: number, len: number): void {
    this.outStarts.push(outStart);
    this.origStarts.push(origStart);
    this.lens.push(len);
  }

  /** The segment found last: parsers ask about offsets left to right, mostly in it or the next. */
  private last = 0;

  /** Index of the last segment starting at or before `i` (0 when none does; -1 when there are none). */
  private seg(i: number): number {
    const a = this.outStarts;
    const n = a.length;
    if (n === 0) return -1;
    const k = this.last;
    if (k < n && a[k]! <= i) {
      if (k + 1 >= n || a[k + 1]! > i) return k;
      if (k + 2 >= n || a[k + 2]! > i) {
        this.last = k + 1;
        return k + 1;
      }
    }
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (a[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    this.last = lo;
    return lo;
  }

  /** Original offset of the pre-tokenized character at `i` (a span start). */
  start(i: number): number {
    const k = this.seg(i);
    if (k < 0) return 0;
    const len = this.lens[k]!;
    if (len === 0) return this.origStarts[k]!;
    return this.origStarts[k]! + Math.min(i - this.outStarts[k]!, len);
  }

  /** Original offset for a span ending (exclusively) at `i`. */
  end(i: number): number {
    if (i <= 0) return this.start(0);
    const k = this.seg(i - 1);
    if (k < 0) return 0;
    const len = this.lens[k]!;
    if (len === 0) return this.origStarts[k]!;
    return this.origStarts[k]! + Math.min(i - this.outStarts[k]!, len);
  }

  /** The kind of character at `i` of the pre-tokenized text `out`. */
  static sentinelAt(out: string, i: number): 'indent' | 'dedent' | 'newline' | 'end' | null {
    if (i >= out.length) return 'end';
    const c = out[i];
    return c === INDENT ? 'indent' : c === DEDENT ? 'dedent' : c === NEWLINE ? 'newline' : null;
  }
}

/** The map of a piece of a chunk's text that starts at `delta` in it. */
export class ShiftedMap extends OffsetMap {
  constructor(
    private readonly base: OffsetMap,
    private readonly delta: number,
  ) {
    super();
  }

  override start(i: number): number {
    return this.base.start(i + this.delta);
  }

  override end(i: number): number {
    return this.base.end(i + this.delta);
  }
}

export interface Chunk {
  out: string;
  map: OffsetMap;
}

/**
 * The content of a logical line as the grammar sees it: comments blanked and newlines or
 * backslash continuations outside strings turned into spaces (length preserved). Sentinel
 * characters in the source outside strings (U+0001..U+0004) become U+007F (DEL, which no Python token
 * holds either) so they cannot fake
 * layout or nesting placeholders.
 */
export function cleanLine(text: string, start: number, end: number, dirty: boolean): string {
  const raw = text.slice(start, end);
  if (!dirty && !/[\x01-\x04]/.test(raw)) return raw;
  const out: string[] = [];
  let i = start;
  let runStart = start;
  const flush = (to: number): void => {
    if (to > runStart) out.push(text.slice(runStart, to));
  };
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === DQ || c === SQ) {
      let r = skipString(text, i);
      if (r < 0) r = -r - 1;
      i = Math.min(r, end);
      continue;
    }
    if (isWordChar(c) && c < 128) {
      // Skip identifiers quickly; a string prefix is followed by a quote handled above.
      i++;
      continue;
    }
    if (c === HASH) {
      flush(i);
      let j = i;
      while (j < end && text.charCodeAt(j) !== LF && text.charCodeAt(j) !== CR) j++;
      out.push(' '.repeat(j - i));
      i = j;
      runStart = i;
      continue;
    }
    if (c === LF || c === CR || (c >= 1 && c <= 4)) {
      flush(i);
      out.push(c <= 4 ? '\x7f' : ' ');
      i++;
      runStart = i;
      continue;
    }
    if (c === BSLASH && (text.charCodeAt(i + 1) === LF || text.charCodeAt(i + 1) === CR)) {
      flush(i);
      out.push(' ');
      i++;
      runStart = i;
      continue;
    }
    i++;
  }
  flush(end);
  return out.join('');
}

/**
 * Pre-tokenizes logical lines [from, to) whose base indentation is `base` (the first line's).
 * Throws `inconsistent-dedent` when a line dedents to a level that was never opened.
 */
export function emitChunk(source: SourceText, table: LineTable, from: number, to: number, base: number): Chunk {
  return emitRanges(source, table, [from, to], base);
}

/**
 * Pre-tokenizes several runs of logical lines, `ranges = [from0, to0, from1, to1, ...]`, as one
 * text: each run must be complete statements starting at the base indentation `base`.
 */
export function emitRanges(source: SourceText, table: LineTable, ranges: readonly number[], base: number): Chunk {
  const text = source.text;
  const parts: string[] = [];
  const map = new OffsetMap();
  let pos = 0;
  const stack: number[] = [base];
  let lastEnd = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    const from = ranges[r]!;
    const to = ranges[r + 1]!;
    for (let l = from; l < to; l++) {
      const w = table.indent[l]!;
      const s = table.start[l]!;
      const e = table.end[l]!;
      let top = stack[stack.length - 1]!;
      if (w > top) {
        stack.push(w);
        parts.push(INDENT);
        map.add(pos, s, 0);
        pos++;
      } else if (w < top) {
        while (w < top) {
          stack.pop();
          parts.push(DEDENT);
          map.add(pos, s, 0);
          pos++;
          top = stack.length > 0 ? stack[stack.length - 1]! : -1;
        }
        if (w !== top) {
          const lineStart = source.lineStart(source.position(s).line);
          failAt(source, lineStart, s, 'inconsistent-dedent', 'this line is dedented to a level that does not match any enclosing block');
        }
      }
      const content = cleanLine(text, s, e, (table.flags[l]! & FLAG_DIRTY) !== 0);
      parts.push(content);
      map.add(pos, s, content.length);
      pos += content.length;
      parts.push(NEWLINE);
      map.add(pos, e, 0);
      pos++;
      lastEnd = e;
    }
  }
  while (stack.length > 1) {
    stack.pop();
    parts.push(DEDENT);
    map.add(pos, lastEnd, 0);
    pos++;
  }
  return { out: parts.join(''), map };
}

/** Pre-tokenizes a bare expression text (a module constant's value, a -D value): no layout. */
export function emitExpression(text: string, start: number, end: number): Chunk {
  const content = cleanLine(text, start, end, true);
  const map = new OffsetMap();
  map.add(0, start, content.length);
  return { out: content, map };
}
