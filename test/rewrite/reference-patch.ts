/**
 * The source patcher as first written (one object per change, the output concatenated piece
 * by piece, line numbers found by splitting each change's text): the oracle the lean patcher
 * (src/rewrite/patch.ts, columns and one join) is compared with. Test code only.
 */

import { type LineTable, scanLines } from '../../src/frontend/scan.js';
import type { Span } from '../../src/ir/nodes.js';
import { DiagnosticError, errorAt } from '../../src/report/diagnostic.js';
import type { SourceText } from '../../src/report/source.js';
import { indentUnit, newlineStyle, type PatchResult, type SourceEdit } from '../../src/rewrite/patch.js';

/** One primitive text change: replace [start, end) by text. `order` keeps insertions stable. */
interface Change {
  start: number;
  end: number;
  text: string;
  order: number;
  /** Lines of `text` that are inserted statements (for the conservation check). */
  inserted: number;
  /**
   * For insertions after a statement: where that statement starts. Insertions at one offset
   * after statements that end together go innermost first (the later-starting statement is
   * the inner one), so an insertion after a loop lands after those in its body.
   */
  after?: number;
}

/** The patcher as first written (a Change object per edit, the text concatenated piece by piece). */
export function referencePatch(source: SourceText, edits: readonly SourceEdit[]): PatchResult {
  const text = source.text;
  const nl = newlineStyle(text);
  const unit = indentUnit(text);
  const changes: Change[] = [];
  const blockified = new Set<number>();
  let order = 0;

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
  const leading = (lineStart: number): string => /^[ ]*/.exec(text.slice(lineStart, lineStart + 200))![0];
  /** The statement after `end` on the same line, separated by `;`: its start, else -1. */
  const nextOnLine = (end: number): number => {
    let i = end;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== ';') return -1;
    i++;
    while (text[i] === ' ' || text[i] === '\t') i++;
    return i >= text.length || text[i] === '\n' || text[i] === '\r' || text[i] === '#' ? -1 : i;
  };
  /** The `;` (with the spaces before it) that separates the statement at `start` from an earlier one on its line, or -1. */
  const semicolonBefore = (start: number): number => {
    let i = start - 1;
    while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
    if (text[i] !== ';') return -1;
    let j = i - 1;
    while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
    return j + 1;
  };
  let table: LineTable | null = null;
  /** Where the logical line holding `offset` starts (a statement before a `;` can span several physical lines). */
  const logicalStartOf = (offset: number): number => {
    table ??= scanLines(text);
    const starts = table.start;
    let lo = 0;
    let hi = table.count - 1;
    if (hi < 0 || starts[0]! > offset) return lineStartOf(offset) + leading(lineStartOf(offset)).length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return starts[lo]!;
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
      else if (c === ':' && depth === 0 && text[i + 1] !== '=') {
        let j = i + 1;
        while (text[j] === ' ' || text[j] === '\t') j++;
        return j;
      }
    }
    return first;
  };
  const broken = new Set<number>();
  /** Puts the statement at `start`, written after a `;`, on a line of its own at `indent`. */
  const breakBefore = (start: number, indent: string): void => {
    if (broken.has(start)) return;
    broken.add(start);
    const semi = semicolonBefore(start);
    changes.push({ start: semi, end: start, text: nl + indent, order: order++, inserted: 0 });
  };
  /** The indentation a statement starting at `offset` has, turning an inline body into a block. */
  const indentFor = (anchor: Span): string => {
    const ls = lineStartOf(anchor.start);
    const before = text.slice(ls, anchor.start);
    if (/^[ ]*$/.test(before)) return before;
    if (semicolonBefore(anchor.start) >= 0) {
      // `a; b`: b goes on its own line, indented like the first statement of the line.
      const listStart = listStartOf(anchor.start);
      const indent = listStart === anchor.start ? leading(lineStartOf(listStart)) : indentFor({ start: listStart, end: listStart });
      breakBefore(anchor.start, indent);
      return indent;
    }
    // Inline body: `if c: x = 1` → put `x = 1` on its own line one unit deeper.
    const bodyIndent = leading(ls) + unit;
    if (!blockified.has(anchor.start)) {
      blockified.add(anchor.start);
      let colon = anchor.start - 1;
      while (colon > ls && (text[colon] === ' ' || text[colon] === '\t')) colon--;
      changes.push({ start: colon + 1, end: anchor.start, text: nl + bodyIndent, order: order++, inserted: 0 });
    }
    return bodyIndent;
  };

  for (const e of edits) {
    if ((e.kind === 'insertAfter' || e.kind === 'insertBefore') && /^elif\b/.test(text.slice(e.anchor.start, e.anchor.start + 5))) {
      // An `elif` branch is the only statement of its parent's else block: a statement next to
      // it would need the chain rewritten into `else:` + `if`, which no edit asks for.
      throw new DiagnosticError([
        errorAt(
          source,
          e.anchor.start,
          e.anchor.start + 4,
          'patch-conflict',
          'cannot insert a statement next to an elif branch; the rules anchored an insertion at it.',
        ),
      ]);
    }
    switch (e.kind) {
      case 'insertAfter': {
        const indent = indentFor(e.anchor);
        // `a; b` with an insertion after a: the lines go between them, b on a line of its own.
        const next = nextOnLine(e.anchor.end);
        if (next >= 0) breakBefore(next, indent);
        const at = next >= 0 ? e.anchor.end : lineEndOf(e.anchor.end);
        const body = e.lines.map((l) => nl + indent + l).join('');
        changes.push({ start: at, end: at, text: body, order: order++, inserted: e.lines.length, after: e.anchor.start });
        break;
      }
      case 'insertBefore': {
        const indent = indentFor(e.anchor);
        const ls = lineStartOf(e.anchor.start);
        const inlineStart = text.slice(ls, e.anchor.start).trim() !== '' && !broken.has(e.anchor.start);
        const at = inlineStart ? e.anchor.start : ls;
        const body = inlineStart ? e.lines.map((l) => l + nl + indent).join('') : e.lines.map((l) => indent + l + nl).join('');
        changes.push({ start: at, end: at, text: body, order: order++, inserted: e.lines.length });
        break;
      }
      case 'replace':
        changes.push({ start: e.span.start, end: e.span.end, text: e.text, order: order++, inserted: 0 });
        break;
      case 'deleteRange':
        changes.push({ start: e.span.start, end: e.span.end, text: '', order: order++, inserted: 0 });
        break;
      case 'addKeyword': {
        const close = e.call.end - 1;
        if (text[close] !== ')') {
          throw new DiagnosticError([
            errorAt(source, e.call.start, e.call.end, 'patch-conflict', 'cannot add a keyword argument: the call does not end with ")".'),
          ]);
        }
        let j = close - 1;
        while (j >= e.call.start && /\s/.test(text[j]!)) j--;
        const kw = `${e.name}=${e.value}`;
        if (text[j] === '(') changes.push({ start: j + 1, end: j + 1, text: kw, order: order++, inserted: 0 });
        else if (text[j] === ',') changes.push({ start: j + 1, end: j + 1, text: ` ${kw},`, order: order++, inserted: 0 });
        else changes.push({ start: j + 1, end: j + 1, text: `, ${kw}`, order: order++, inserted: 0 });
        break;
      }
    }
  }

  changes.sort(
    (a, b) =>
      a.start - b.start || a.end - b.end || (a.after !== undefined && b.after !== undefined ? b.after - a.after : 0) || a.order - b.order,
  );
  for (let i = 1; i < changes.length; i++) {
    const prev = changes[i - 1]!;
    const cur = changes[i]!;
    if (cur.start < prev.end || (cur.start === prev.start && prev.end > prev.start && cur.end > cur.start)) {
      throw new DiagnosticError([
        errorAt(
          source,
          cur.start,
          Math.max(cur.end, cur.start + 1),
          'patch-conflict',
          'two edits change overlapping text; the rules derived conflicting edits for this place.',
        ),
      ]);
    }
  }

  let out = '';
  let pos = 0;
  const insertedLines: number[] = [];
  let line = 1;
  const countLines = (s: string): number => {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 10 || (c === 13 && s.charCodeAt(i + 1) !== 10)) n++;
    }
    return n;
  };
  for (const c of changes) {
    const kept = text.slice(pos, c.start);
    out += kept;
    line += countLines(kept);
    if (c.inserted > 0) {
      // Inserted statements are whole lines: find their line numbers in the new text.
      const parts = c.text.split(nl);
      let l = line;
      for (let k = 0; k < parts.length; k++) {
        if (k > 0) l++;
        if (parts[k]!.trim() !== '' && (c.text.startsWith(nl) ? k > 0 : k < parts.length - 1)) insertedLines.push(l);
      }
    }
    out += c.text;
    line += countLines(c.text);
    pos = c.end;
  }
  out += text.slice(pos);
  return { text: out, insertedLines };
}
