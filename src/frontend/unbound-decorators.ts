// A decorator spelled as one of PyPTO's (`@pl.program`, `@pl.jit.incore`, `@pl.function`,
// `@pl.inline`) whose first name no import of the module binds: Python raises NameError when the
// module runs, and ptolog reads no program or kernel there. Said at the decorator, never in
// silence (e.g. `import pypto.language as p` above an `@pl.program` class).
import type { Diagnostic } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { decoratorParts } from './decorators.js';
import type { Imports } from './imports.js';
import { cleanLine } from './layout.js';
import { FLAG_DIRTY, type LineTable } from './scan.js';

/** A line that may bind `pl`: an import naming it, an assignment, a `def` / `class` of that name, a `for` or `with ... as`. */
const BINDS_PL =
  /^[ \t]*(?:(?:from\s+\S+\s+)?import\b[^\n]*\bpl\b|pl\s*(?::[^=\n]*)?=[^=]|(?:def|class)\s+pl\b|(?:for|with)\b[^\n]*\bpl\b)/m;

/** The tail of a dotted decorator name that is PyPTO's after its module name. */
const PYPTO_TAIL = /^(?:program|function|inline|jit(?:\.[\p{L}_][\p{L}\p{N}_]*)*)$/u;

/** A note at each decorator line spelled as PyPTO's (`@pl.…`) where the module's imports do not bind `pl`. */
export function unboundDecorators(source: SourceText, table: LineTable, imports: Imports): Diagnostic[] {
  const text = source.text;
  const out: Diagnostic[] = [];
  if (imports.names.has('pl')) return out;
  // `pl` bound otherwise (`import numpy as pl`, `pl = ...`, `def pl`): not PyPTO's, nothing to say.
  // (Asked once, at the first decorator it would be said of.)
  let bound: boolean | undefined;
  for (let l = 0; l < table.count; l++) {
    const s = table.start[l]!;
    if (text.charCodeAt(s) !== 64) continue;
    const parts = decoratorParts(cleanLine(text, s, table.end[l]!, (table.flags[l]! & FLAG_DIRTY) !== 0));
    if (!parts || parts.length < 2) continue;
    // (Only `pl`, the DSL's own spelling: another unbound name may be bound otherwise, `app = App()`.)
    const first = parts[0]!;
    if (first !== 'pl' || !PYPTO_TAIL.test(parts.slice(1).join('.'))) continue;
    bound ??= BINDS_PL.test(text);
    if (bound) return out;
    const aliases = [...imports.names].filter(([, canonical]) => canonical === 'pl').map(([local]) => `'${local}'`);
    const hint = aliases.length > 0 ? ` (pypto.language is imported here as ${aliases.join(', ')})` : '';
    const what = parts[1] === 'program' ? 'class' : 'function';
    out.push({
      severity: 'note',
      code: 'unbound-decorator',
      message: `'${first}' is bound by no import of this module${hint}: Python raises NameError at @${parts.join('.')}, and the ${what} it decorates is not read as PyPTO code`,
      location: { source, start: s, end: table.end[l]! },
    });
  }
  return out;
}
