/**
 * The source patcher: applies edits anchored to IR spans to the original text and keeps every
 * other byte as it was.
 *
 * Before → after, for each edit kind:
 *
 *   insertAfter(stmt `store(win)`, ["fence()"])
 *       store(win)  # keep          store(win)  # keep
 *       notify()              →     fence()
 *                                   notify()
 *
 *   insertAfter on a body written on its header's line (`if c: x = 1`) first turns the body
 *   into a block at the header's indentation plus one indentation unit:
 *       if c: x = 1           →     if c:
 *                                       x = 1
 *                                       fence()
 *
 *   insertBefore(stmt `for ...`, ["b = task_dummy(deps=[t])"])
 *       for i in pl.range(4): →     b = task_dummy(deps=[t])
 *                                   for i in pl.range(4):
 *
 *   replace(span of `[tids]`, "[b]")          deps=[tids]  →  deps=[b]
 *   addKeyword(call `load(x, [0])`, "cache", "pl.CachePolicy.BYPASS")
 *       load(x, [0])          →     load(x, [0], cache=pl.CachePolicy.BYPASS)
 *   deleteRange(span)         removes exactly that text (used to drop a dict entry with its comma)
 *
 * Inserted lines use the file's newline style. Overlapping edits are refused with a diagnostic.
 */

import { newlineAt } from '../frontend/chars.js';
import { type LineTable, scanLines } from '../frontend/scan.js';
import type { Span } from '../ir/nodes.js';
import { DiagnosticError, errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { IntColumn } from './columns.js';
import { countLines, indentUnit, newlineStyle } from './text-lines.js';

export { indentUnit, newlineStyle, removeLines } from './text-lines.js';

export type SourceEdit =
  | { kind: 'insertAfter'; anchor: Span; lines: string[] }
  | { kind: 'insertBefore'; anchor: Span; lines: string[] }
  | { kind: 'replace'; span: Span; text: string }
  | { kind: 'addKeyword'; call: Span; name: string; value: string }
  | { kind: 'deleteRange'; span: Span };

/** The kinds of SourceEdit, by their code in a SourceEditList. */
const KINDS: ReadonlyArray<SourceEdit['kind']> = ['insertAfter', 'insertBefore', 'replace', 'addKeyword', 'deleteRange'];

/**
 * Source edits as columns (the rewriter's hundreds of thousands of insertions, without an
 * object each): edit i is `kind(i)` at the span (anchor, call) [start, end); `a` is an
 * insertion's lines (a string: one line), a replacement's text or an added keyword's name;
 * `b` an added keyword's value.
 */
export class SourceEditList {
  private readonly kinds: IntColumn;
  readonly start: IntColumn;
  readonly end: IntColumn;
  readonly a: Array<string | readonly string[]> = [];
  private readonly b = new Map<number, string>();

  /** `capacity`: how many edits to make room for (more may be added). */
  constructor(capacity = 16) {
    this.kinds = new IntColumn(capacity);
    this.start = new IntColumn(capacity);
    this.end = new IntColumn(capacity);
  }

  /** Adds an edit given by its columns. */
  push(kind: SourceEdit['kind'], start: number, end: number, a: string | readonly string[] = '', b = ''): void {
    if (kind === 'addKeyword') this.b.set(this.a.length, b);
    this.kinds.push(KINDS.indexOf(kind));
    this.start.push(start);
    this.end.push(end);
    this.a.push(a);
  }

  /** Adds an edit given as an object. */
  add(e: SourceEdit): void {
    if (e.kind === 'insertAfter' || e.kind === 'insertBefore') this.push(e.kind, e.anchor.start, e.anchor.end, e.lines);
    else if (e.kind === 'replace') this.push(e.kind, e.span.start, e.span.end, e.text);
    else if (e.kind === 'addKeyword') this.push(e.kind, e.call.start, e.call.end, e.name, e.value);
    else this.push(e.kind, e.span.start, e.span.end);
  }

  /** The kind of edit `i`. */
  kind(i: number): SourceEdit['kind'] {
    return KINDS[this.kinds.at(i)]!;
  }

  /** The value of edit `i` when it adds a keyword, else ''. */
  value(i: number): string {
    return this.b.get(i) ?? '';
  }

  get length(): number {
    return this.a.length;
  }
}

/**
 * How a change's text is written: `text` its own string; the others an insertion's lines
 * with the newline and indentation around each: `after` (nl indent line)*, `beforeLine`
 * (indent line nl)*, `beforeInline` (line nl indent)*.
 */
const Form = { text: 0, after: 1, beforeLine: 2, beforeInline: 3 } as const;
type Form = (typeof Form)[keyof typeof Form];

/**
 * Primitive text changes as columns: change i replaces [start, end) by its text (see Form;
 * `text` is the lines of an insertion, `indent` their indentation, in spaces). A change's
 * index keeps insertions stable. `inserted` counts the lines of its text that are inserted
 * statements (for the conservation check). `after` (-1: none): for insertions after a
 * statement, where that statement starts. Insertions at one offset after statements that end
 * together go innermost first (the later-starting statement is the inner one), so an
 * insertion after a loop lands after those in its body.
 */
class Changes {
  readonly start: IntColumn;
  readonly end: IntColumn;
  readonly form: IntColumn;
  readonly text: Array<string | readonly string[]> = [];
  readonly indent: IntColumn;
  readonly inserted: IntColumn;
  readonly after: IntColumn;

  constructor(capacity: number) {
    this.start = new IntColumn(capacity);
    this.end = new IntColumn(capacity);
    this.form = new IntColumn(capacity);
    this.indent = new IntColumn(capacity);
    this.inserted = new IntColumn(capacity);
    this.after = new IntColumn(capacity);
  }

  push(start: number, end: number, text: string, inserted = 0): void {
    this.add(start, end, Form.text, text, 0, inserted, -1);
  }

  add(start: number, end: number, form: Form, text: string | readonly string[], indent: number, inserted: number, after: number): void {
    this.start.push(start);
    this.end.push(end);
    this.form.push(form);
    this.text.push(text);
    this.indent.push(indent);
    this.inserted.push(inserted);
    this.after.push(after);
  }

  get length(): number {
    return this.text.length;
  }
}

/** How many different inserted lines the patcher keeps one text of (with newline and indentation). */
const BODIES_KEPT = 4096;

/** Lines that the insertion forms write without a look at their text: not blank, no line break in them. */
const plainLine = (l: string): boolean => l.trim() !== '' && !/[\r\n]/.test(l);

export interface PatchResult {
  text: string;
  /** 1-based line numbers (in the patched text) of every inserted statement line. */
  insertedLines: number[];
}

/** Applies `edits` to `source`; everything outside the edited spans is kept byte for byte. */
export function applySourceEdits(source: SourceText, edits: readonly SourceEdit[]): PatchResult {
  const list = new SourceEditList(edits.length);
  for (const e of edits) list.add(e);
  return patchSource(source, list);
}

/** As applySourceEdits, for edits given as columns (the rewriter's way: no object per edit). */
export function patchSource(source: SourceText, edits: SourceEditList): PatchResult {
  const text = source.text;
  const nl = newlineStyle(text);
  const unit = indentUnit(text);
  const changes = new Changes(edits.length + 16);
  const blockified = new Set<number>();
  // Indentations are runs of spaces: one string per width.
  const spaceRuns: string[] = [];
  const spaces = (n: number): string => (spaceRuns[n] ??= ' '.repeat(n));

  // Python's line ends: \n, \r\n and a lone \r.
  const lineStartOf = (offset: number): number => {
    let i = offset - 1;
    while (i >= 0 && text[i] !== '\n' && text[i] !== '\r') i--;
    return i + 1;
  };
  const lineEndOf = (offset: number): number => {
    let i = offset;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    return i;
  };
  /** The spaces (at most 200) a line starts with. */
  const leading = (lineStart: number): string => {
    let n = 0;
    while (n < 200 && text.charCodeAt(lineStart + n) === 32) n++;
    return spaces(n);
  };
  /** True when [from, to) holds spaces only. */
  const onlySpaces = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) if (text.charCodeAt(i) !== 32) return false;
    return true;
  };
  /** White space inside a line (a form feed too). */
  const blankAt = (i: number): boolean => {
    const c = text.charCodeAt(i);
    return c === 32 || c === 9 || c === 12;
  };
  /** Length of the newline ending right before `i` (1 or 2), else 0. */
  const newlineBefore = (i: number): number => {
    const c = i > 0 ? text.charCodeAt(i - 1) : -1;
    if (c === 10) return i > 1 && text.charCodeAt(i - 2) === 13 ? 2 : 1;
    return c === 13 ? 1 : 0;
  };
  let table: LineTable | null = null;
  /** True when the `\` at `b` is in a comment (it then continues nothing). */
  const inComment = (b: number): boolean => {
    table ??= scanLines(text);
    const hashes = table.comments;
    let lo = 0;
    let hi = hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (hashes[mid]! < b) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && hashes[lo - 1]! >= lineStartOf(b);
  };
  /**
   * From `i` back over white space and backslash continuations (Python joins a line ending in
   * `\` to the next): the offset after the last other character before `i`.
   */
  const skipBack = (i: number): number => {
    for (;;) {
      if (i > 0 && blankAt(i - 1)) i--;
      else {
        const d = newlineBefore(i);
        if (d === 0 || text.charCodeAt(i - d - 1) !== 92 || inComment(i - d - 1)) return i;
        i -= d + 1;
      }
    }
  };
  /** From `i` on over white space and backslash continuations: the first other character. */
  const skipForward = (i: number): number => {
    for (;;) {
      if (blankAt(i)) i++;
      else if (text.charCodeAt(i) === 92 && newlineAt(text, i + 1) > 0) i += 1 + newlineAt(text, i + 1);
      else return i;
    }
  };
  /** True when `i` is the start of a physical line. */
  const atLineStart = (i: number): boolean => i === 0 || newlineBefore(i) > 0 || (i === 1 && text.charCodeAt(0) === 0xfeff);
  /**
   * The indentation of the logical line whose first physical line starts at `ls`, as Python
   * measures it (see scanLines: a form feed resets the column, the first backslash
   * continuation not at column 0 fixes it), in spaces.
   */
  const indentAt = (ls: number): string => {
    let w = 0;
    let cont = 0;
    let i = ls;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32) w++;
      else if (c === 9) w = (((w / 8) | 0) + 1) * 8;
      else if (c === 12) w = 0;
      else if (c === 92 && newlineAt(text, i + 1) > 0) {
        if (cont === 0) cont = w;
        i += 1 + newlineAt(text, i + 1);
        continue;
      } else break;
      i++;
    }
    return spaces(cont || w);
  };
  /** The statement after `end` on the same logical line, separated by `;`: its start, else -1. */
  const nextOnLine = (end: number): number => {
    let i = skipForward(end);
    if (text[i] !== ';') return -1;
    i = skipForward(i + 1);
    return i >= text.length || text[i] === '\n' || text[i] === '\r' || text[i] === '#' ? -1 : i;
  };
  /** The `;` (with the white space before it) that separates the statement at `start` from an earlier one on its logical line, or -1. */
  const semicolonBefore = (start: number): number => {
    const i = skipBack(start);
    if (text[i - 1] !== ';') return -1;
    return skipBack(i - 1);
  };
  /** The logical line holding `offset` (by the scanner's table). */
  const logicalLineOf = (offset: number): number => {
    table ??= scanLines(text);
    const starts = table.start;
    let lo = 0;
    let hi = table.count - 1;
    if (hi < 0 || starts[0]! > offset) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  /** Where the logical line holding `offset` starts (a statement before a `;` can span several physical lines). */
  const logicalStartOf = (offset: number): number => {
    const l = logicalLineOf(offset);
    return l < 0 ? lineStartOf(offset) + leading(lineStartOf(offset)).length : table!.start[l]!;
  };
  /** The indentation of the logical line holding `offset`, in spaces. */
  const logicalIndentOf = (offset: number): string => {
    const l = logicalLineOf(offset);
    return l < 0 ? leading(lineStartOf(offset)) : spaces(table!.indent[l]!);
  };
  /**
   * Where the simple statements of the logical line holding `offset` start: after the line's
   * indentation, or after the header colon of a compound statement whose body is on its line.
   */
  const listStartOf = (offset: number): number => {
    const first = logicalStartOf(offset);
    if (!/^(if|elif|else|for|while|with|def|try|except|finally|class|async)(?![A-Za-z0-9_])/.test(text.slice(first, first + 8)))
      return first;
    let depth = 0;
    for (let i = first; i < offset; i++) {
      const c = text[i]!;
      if (c === '"' || c === "'") {
        const q = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
        let j = i + q.length;
        while (j < offset && !text.startsWith(q, j)) j += text[j] === '\\' ? 2 : 1;
        i = j + q.length - 1;
      } else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      else if (c === ':' && depth === 0 && text[i + 1] !== '=') return skipForward(i + 1);
    }
    return first;
  };
  const broken = new Set<number>();
  /** Puts the statement at `start`, written after a `;`, on a line of its own at `indent`. */
  const breakBefore = (start: number, indent: string): void => {
    if (broken.has(start)) return;
    broken.add(start);
    const semi = semicolonBefore(start);
    changes.push(semi, start, nl + indent);
  };
  /**
   * Where the logical line starts physically when the statement at `start` is its first (only
   * white space and backslash continuations before it on the line), else -1.
   */
  const lineOf = (start: number): number => {
    const ls = lineStartOf(start);
    // (The common case: spaces, and the line before does not end in a backslash.)
    if (onlySpaces(ls, start) && (ls === 0 || text.charCodeAt(ls - newlineBefore(ls) - 1) !== 92)) return ls;
    const b = skipBack(start);
    return atLineStart(b) ? b : -1;
  };
  /** The indentation a statement starting at `start` has, turning an inline body into a block. */
  const indentFor = (start: number): string => {
    const ls = lineStartOf(start);
    if (onlySpaces(ls, start) && (ls === 0 || text.charCodeAt(ls - newlineBefore(ls) - 1) !== 92)) return spaces(start - ls);
    const own = lineOf(start);
    if (own >= 0) return indentAt(own);
    if (semicolonBefore(start) >= 0) {
      // `a; b`: b goes on its own line, indented like the first statement of the line.
      const listStart = listStartOf(start);
      const indent = listStart === start ? logicalIndentOf(start) : indentFor(listStart);
      breakBefore(start, indent);
      return indent;
    }
    // Inline body: `if c: x = 1` → put `x = 1` on its own line one unit deeper.
    const bodyIndent = logicalIndentOf(start) + unit;
    if (!blockified.has(start)) {
      blockified.add(start);
      changes.push(skipBack(start), start, nl + bodyIndent);
    }
    return bodyIndent;
  };
  /** An `elif` (the keyword, then no name character) starts at `at`. */
  const elifAt = (at: number): boolean => text.startsWith('elif', at) && !/\w/.test(text[at + 4] ?? '');

  for (let e = 0; e < edits.length; e++) {
    const kind = edits.kind(e);
    const start = edits.start.at(e);
    const end = edits.end.at(e);
    const a = edits.a[e]!;
    if ((kind === 'insertAfter' || kind === 'insertBefore') && elifAt(start)) {
      // An `elif` branch is the only statement of its parent's else block: a statement next to
      // it would need the chain rewritten into `else:` + `if`, which no edit asks for.
      throw new DiagnosticError([
        errorAt(
          source,
          start,
          start + 4,
          'patch-conflict',
          'cannot insert a statement next to an elif branch; the rules anchored an insertion at it.',
        ),
      ]);
    }
    switch (kind) {
      case 'insertAfter': {
        const indent = indentFor(start);
        // `a; b` with an insertion after a: the lines go between them, b on a line of its own.
        const next = nextOnLine(end);
        if (next >= 0) breakBefore(next, indent);
        const at = next >= 0 ? end : lineEndOf(end);
        insertion(changes, at, Form.after, a, indent, nl, start);
        break;
      }
      case 'insertBefore': {
        const indent = indentFor(start);
        // (Before a statement that starts its line: at the line's start; a line continued
        // with a backslash starts on an earlier physical line.)
        const own = broken.has(start) ? lineStartOf(start) : lineOf(start);
        insertion(changes, own >= 0 ? own : start, own >= 0 ? Form.beforeLine : Form.beforeInline, a, indent, nl, -1);
        break;
      }
      case 'replace':
        changes.push(start, end, a as string);
        break;
      case 'deleteRange':
        changes.push(start, end, '');
        break;
      case 'addKeyword': {
        const close = end - 1;
        if (text[close] !== ')') {
          throw new DiagnosticError([
            errorAt(source, start, end, 'patch-conflict', 'cannot add a keyword argument: the call does not end with ")".'),
          ]);
        }
        let j = close - 1;
        while (j >= start && /\s/.test(text[j]!)) j--;
        const kw = `${a as string}=${edits.value(e)}`;
        if (text[j] === '(') changes.push(j + 1, j + 1, kw);
        else if (text[j] === ',') changes.push(j + 1, j + 1, ` ${kw},`);
        else changes.push(j + 1, j + 1, `, ${kw}`);
        break;
      }
    }
  }

  // Changes in text order (a change's index breaks ties: insertions stay in the order given).
  const { start, end, after } = changes;
  const n = changes.length;
  const order: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort(
    (x, y) =>
      start.at(x) - start.at(y) || end.at(x) - end.at(y) || (after.at(x) >= 0 && after.at(y) >= 0 ? after.at(y) - after.at(x) : 0) || x - y,
  );
  for (let k = 1; k < n; k++) {
    const prev = order[k - 1]!;
    const cur = order[k]!;
    if (
      start.at(cur) < end.at(prev) ||
      (start.at(cur) === start.at(prev) && end.at(prev) > start.at(prev) && end.at(cur) > start.at(cur))
    ) {
      throw new DiagnosticError([
        errorAt(
          source,
          start.at(cur),
          Math.max(end.at(cur), start.at(cur) + 1),
          'patch-conflict',
          'two edits change overlapping text; the rules derived conflicting edits for this place.',
        ),
      ]);
    }
  }

  // The patched text: the kept slices and the changes' texts, joined once (the pieces counted
  // first, so their array is made once).
  const linesOf = (c: number): number => {
    const t = changes.text[c]!;
    return typeof t === 'string' ? 1 : t.length;
  };
  let count = 1;
  for (let c = 0; c < n; c++) count += 1 + (changes.form.at(c) === Form.text ? 1 : 3 * linesOf(c));
  // The texts of inserted lines with their newline and indentation, by line, then by form and
  // indentation (the first BODIES_KEPT lines: lines that differ everywhere would only fill it).
  const bodies = new Map<string, Map<number, string>>();
  const pieces: string[] = new Array<string>(count);
  let p = 0;
  let pos = 0;
  const insertedLines: number[] = [];
  let line = 1;
  for (const c of order) {
    const s = start.at(c);
    pieces[p++] = text.slice(pos, s);
    line += countLines(text, pos, s);
    const form = changes.form.at(c);
    if (form === Form.text) {
      const t = changes.text[c] as string;
      if (changes.inserted.at(c) > 0) {
        // Inserted statements are whole lines: find their line numbers in the new text.
        const parts = t.split(nl);
        let l = line;
        for (let k = 0; k < parts.length; k++) {
          if (k > 0) l++;
          if (parts[k]!.trim() !== '' && (t.startsWith(nl) ? k > 0 : k < parts.length - 1)) insertedLines.push(l);
        }
      }
      pieces[p++] = t;
      line += countLines(t, 0, t.length);
    } else {
      // Plain lines (see plainLine): line k of m is the k-th line from here (after a
      // statement: from the next line), one newline each.
      const t = changes.text[c]!;
      const indent = spaces(changes.indent.at(c));
      const m = linesOf(c);
      const first = form === Form.after ? line + 1 : line;
      for (let k = 0; k < m; k++) {
        const l = typeof t === 'string' ? t : t[k]!;
        insertedLines.push(first + k);
        const body = bodies.get(l)?.get(form * 65536 + indent.length);
        if (body !== undefined) pieces[p++] = body;
        else if (bodies.size < BODIES_KEPT && indent.length < 65536) {
          // (a line inserted at many places: its text with newline and indentation made once)
          const made = form === Form.after ? nl + indent + l : form === Form.beforeLine ? indent + l + nl : l + nl + indent;
          let forms = bodies.get(l);
          if (!forms) bodies.set(l, (forms = new Map()));
          forms.set(form * 65536 + indent.length, made);
          pieces[p++] = made;
        } else if (form === Form.after) {
          pieces[p++] = nl;
          pieces[p++] = indent;
          pieces[p++] = l;
        } else if (form === Form.beforeLine) {
          pieces[p++] = indent;
          pieces[p++] = l;
          pieces[p++] = nl;
        } else {
          pieces[p++] = l;
          pieces[p++] = nl;
          pieces[p++] = indent;
        }
      }
      line += m;
    }
    pos = end.at(c);
  }
  pieces[p++] = text.slice(pos);
  // (a line whose text was made once is one piece, not three)
  pieces.length = p;
  return { text: pieces.join(''), insertedLines };
}

/**
 * Adds an insertion of `lines` at `at` written in `form` (see Form). Lines that are not plain
 * (blank, or holding a line break) are written into one text, with the newline and
 * indentation around each as the form says.
 */
function insertion(
  changes: Changes,
  at: number,
  form: Form,
  lines: string | readonly string[],
  indent: string,
  nl: string,
  after: number,
): void {
  if (typeof lines === 'string' ? plainLine(lines) : lines.every(plainLine)) {
    // (indentations are spaces only)
    changes.add(at, at, form, lines, indent.length, typeof lines === 'string' ? 1 : lines.length, after);
    return;
  }
  const list = typeof lines === 'string' ? [lines] : lines;
  const body =
    form === Form.after
      ? list.map((l) => nl + indent + l).join('')
      : form === Form.beforeLine
        ? list.map((l) => indent + l + nl).join('')
        : list.map((l) => l + nl + indent).join('');
  changes.add(at, at, Form.text, body, 0, list.length, after);
}
