/**
 * Formatting for the language server: each program (and each JIT kernel) of a document is
 * replaced in place by its `fmt` form — the text `ptolog fmt` prints for it, comments included —
 * at the program's own indentation and in the module's spelling of `pl` / `pld`, from its first leading comment to the end of its last
 * line. Everything else of the file (imports, constants, tests, helpers, module docstrings) is
 * kept as written, since an editor's "format document" must never delete code (`ptolog fmt`
 * prints only the programs). A document that does not read, or holds no program, is left as it is.
 */

import { respell } from '../frontend/imports.js';
import { moduleErrors, parseModuleIsolated } from '../frontend/index.js';
import { scanLines } from '../frontend/scan.js';
import type { ConstValue, Span } from '../ir/nodes.js';
import { printFunction, printProgram } from '../ir/print.js';

/** The document's text with every program in its `fmt` form, or undefined when it has errors or no program. */
export function formatText(text: string, path: string, defines: ReadonlyMap<string, ConstValue>): string | undefined {
  const m = parseModuleIsolated(text, path, { defines });
  if (moduleErrors(m).length > 0 || m.programs.length === 0) return undefined;
  const table = scanLines(text);
  const lineStart = (o: number): number => {
    let i = o;
    while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
    return i;
  };
  const lineEnd = (o: number): number => {
    let i = o;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    return i;
  };
  /** Where the text of a unit starting at `start` begins: its first leading comment after the code before it, else its line. */
  const unitStart = (start: number): number => {
    let l = 0;
    while (l + 1 < table.count && table.start[l + 1]! <= start) l++;
    const after = l > 0 ? lineEnd(table.end[l - 1]!) : 0;
    const c = table.comments.find((x) => x >= after && x < start);
    return lineStart(c ?? start);
  };
  const units: { span: Span; print: () => string }[] = [];
  for (const p of m.programs) {
    if (p.jit) for (const f of p.functions) units.push({ span: f, print: () => printFunction(f, 0) });
    else units.push({ span: p, print: () => printProgram(p) });
  }
  units.sort((a, b) => a.span.start - b.span.start);
  const nl = /\r\n/.test(text) ? '\r\n' : /\r/.test(text) && !/\n/.test(text) ? '\r' : '\n';
  let out = '';
  let pos = 0;
  for (const u of units) {
    const from = unitStart(u.span.start);
    const to = lineEnd(u.span.end);
    if (from < pos) return undefined;
    const indent = text.slice(lineStart(u.span.start), u.span.start).replace(/[^ \t]/g, '');
    // In the module's own spelling of pl / pld (`import pypto.language as pyl`).
    const printed = respell(u.print(), m.spell ?? { pl: 'pl', pld: 'pld' })
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => (l === '' ? '' : indent + l))
      .join(nl);
    out += text.slice(pos, from) + printed;
    pos = to;
  }
  return out + text.slice(pos);
}
