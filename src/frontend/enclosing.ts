/**
 * Constants from the scope that encloses a program. A `@pl.program` class written inside a
 * builder function or a test method is executed there, so PyPTO resolves its free names in
 * that function's locals first (its closure variables), then in the module. ptolog does the
 * same textually: the assignments `NAME = <constant>` at the top level of each enclosing
 * function body, before the program, bind NAME for that program (the innermost function
 * wins); a name assigned a non-constant value there, or a parameter of the function, shadows
 * the module constant and is symbolic. `-D NAME=VALUE` still decides a name everywhere.
 */
import type { ConstValue } from '../ir/nodes.js';
import { parseConstText } from './constants.js';
import { cleanLine } from './layout.js';
import { type LineTable, lineStartsWithWord } from './scan.js';

const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n\r]*)?=(?!=)/;

/** The enclosing `def` lines of logical line `l`, innermost first. */
function enclosingDefs(text: string, table: LineTable, l: number): number[] {
  const out: number[] = [];
  let w = table.indent[l]!;
  for (let k = l - 1; k >= 0 && w > 0; k--) {
    const kw = table.indent[k]!;
    if (kw >= w) continue;
    w = kw;
    if (lineStartsWithWord(text, table, k, 'def') || lineStartsWithWord(text, table, k, 'async')) out.push(k);
  }
  return out;
}

/** Parameter names of a `def` line (a rough split of its parenthesised list). */
function paramNames(text: string, table: LineTable, d: number): string[] {
  const src = cleanLine(text, table.start[d]!, table.end[d]!, true);
  const open = src.indexOf('(');
  if (open < 0) return [];
  const names: string[] = [];
  let depth = 0;
  let item = '';
  for (const ch of src.slice(open + 1)) {
    if (depth === 0 && (ch === ',' || ch === ')')) {
      const m = /^\s*\**\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(item);
      if (m) names.push(m[1]!);
      item = '';
      if (ch === ')') break;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    item += ch;
  }
  return names;
}

/**
 * The constants in effect for the program whose decorator is logical line `l`: the module's,
 * then each enclosing function's bindings (outermost first); `defines` override them all.
 * Returns null when no function encloses the program (the module's constants apply).
 */
export function enclosingConstants(
  text: string,
  table: LineTable,
  l: number,
  moduleConsts: ReadonlyMap<string, ConstValue>,
  defines: ReadonlyMap<string, ConstValue>,
): Map<string, ConstValue> | null {
  const defs = enclosingDefs(text, table, l);
  if (defs.length === 0) return null;
  const env = new Map(moduleConsts);
  for (const d of defs.reverse()) {
    for (const p of paramNames(text, table, d)) if (!defines.has(p)) env.delete(p);
    // The body's top level: lines after the def at the indentation of its first line, before `l`.
    const bodyIndent = d + 1 < table.count ? table.indent[d + 1]! : -1;
    if (bodyIndent <= table.indent[d]!) continue;
    for (let k = d + 1; k < l; k++) {
      if (table.indent[k] !== bodyIndent) continue;
      const s = table.start[k]!;
      const e = table.end[k]!;
      const m = ASSIGN.exec(text.slice(s, Math.min(e, s + 256)));
      if (!m) continue;
      const name = m[1]!;
      if (defines.has(name)) continue;
      const v = parseConstText(cleanLine(text, s + m[0].length, e, true).trim(), env);
      if (v === undefined) env.delete(name);
      else env.set(name, v);
    }
  }
  return env;
}
