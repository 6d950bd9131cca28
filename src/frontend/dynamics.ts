/**
 * Module-level symbolic dimensions: `N = pl.dynamic("N")` (through the module's imports:
 * `X.dynamic(...)` for `import pypto.language as X`, `dynamic(...)` after
 * `from pypto.language import dynamic`). Read by a line scan of indentation-0 assignments, like
 * the module constants; a later assignment of the name to anything else forgets it.
 */

import { type Imports, languageNames, memberNames } from './imports.js';
import { cleanLine } from './layout.js';
import type { LineTable } from './scan.js';

const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)/;

/** NAME → the string argument of its `pl.dynamic("...")`, in module order; names that are constants are left out. */
export function moduleDynamics(
  text: string,
  table: LineTable,
  imports: Imports,
  constants: ReadonlyMap<string, unknown>,
): Map<string, string> {
  const esc = (xs: string[]): string =>
    xs
      .map((x) => x.replace(/[^\w]/g, ''))
      .filter((x) => x !== '')
      .join('|') || '(?!)';
  const call = new RegExp(
    `^(?:(?:${esc(languageNames(imports))})\\s*\\.\\s*dynamic|(?:${esc(memberNames(imports, 'dynamic'))}))\\s*\\(\\s*([rRuU]?(?:"[^"\\\\\\n]*"|'[^'\\\\\\n]*'))\\s*\\)$`,
  );
  const out = new Map<string, string>();
  for (let l = 0; l < table.count; l++) {
    if (table.indent[l] !== 0) continue;
    const s = table.start[l]!;
    const e = table.end[l]!;
    const m = ASSIGN.exec(text.slice(s, Math.min(e, s + 256)));
    if (!m) continue;
    const name = m[1]!;
    out.delete(name);
    const rhs = cleanLine(text, s + m[0].length, e, true).trim();
    const d = call.exec(rhs);
    if (d) out.set(name, d[1]!.replace(/^[rRuU]?./, '').slice(0, -1));
  }
  for (const name of constants.keys()) out.delete(name);
  return out;
}
