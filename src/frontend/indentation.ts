/**
 * Python's layout rules over a whole module: more than 200 nested brackets on a line, and its
 * indentation rules, checked on the scanner's logical lines
 * before anything is parsed: a line indented deeper than the block it is in without a `:`
 * line before it ("unexpected indent"), a `:` line not followed by a deeper line ("expected
 * an indented block"), and a dedent to a width no enclosing block has ("unindent does not
 * match any outer indentation level") are what CPython reports as IndentationError. Python
 * rejects such a file as a whole, so ptolog reads none of it rather than silently ending a
 * function (or a program) early.
 */
import { type Diagnostic, errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { FLAG_ERROR, type LineTable } from './scan.js';

const COLON = 58;

/** The first IndentationError (or too-many-nested-parentheses error) Python would raise for the module, located, or null. */
export function indentationError(source: SourceText, table: LineTable): Diagnostic | null {
  const text = source.text;
  const stack: number[] = [0];
  let opener = -1;
  for (let l = 0; l < table.count; l++) {
    const nested = (table.flags[l]! & FLAG_ERROR) !== 0 ? table.errors.get(l) : undefined;
    if (nested?.code === 'nesting-too-deep') return errorAt(source, nested.start, nested.end, nested.code, nested.message);
    const w = table.indent[l]!;
    const s = table.start[l]!;
    const top = stack[stack.length - 1]!;
    if (opener >= 0) {
      if (w <= top) {
        const at = source.position(table.start[opener]!).line;
        return errorAt(source, s, s, 'syntax-error', `expected an indented block after line ${at} (Python: IndentationError)`);
      }
      stack.push(w);
    } else if (w > top) {
      return errorAt(
        source,
        s,
        s,
        'syntax-error',
        'unexpected indent (Python: IndentationError): this line is indented deeper than the block it is in',
      );
    } else if (w < top) {
      while (stack.length > 1 && w < stack[stack.length - 1]!) stack.pop();
      if (w !== stack[stack.length - 1]) {
        return errorAt(
          source,
          source.lineStart(source.position(s).line),
          s,
          'inconsistent-dedent',
          'this line is dedented to a level that does not match any enclosing block',
        );
      }
    }
    const e = table.end[l]!;
    opener = (table.flags[l]! & FLAG_ERROR) === 0 && e > s && text.charCodeAt(e - 1) === COLON ? l : -1;
  }
  if (opener >= 0) {
    const e = table.end[opener]!;
    return errorAt(source, e, e, 'syntax-error', 'expected an indented block at the end of the file (Python: IndentationError)');
  }
  return null;
}
