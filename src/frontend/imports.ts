/**
 * The module's PyPTO imports: which local names stand for `pypto.language` (canonically `pl`),
 * `pypto.language.distributed` (`pld`), or one of their members (`from pypto.language import
 * Tensor`). The frontend reads names through this table, never by their spelling, and the
 * rewriter writes inserted text with the module's own spelling.
 *
 * A module without any PyPTO import (a snippet) reads `pl` and `pld` as the canonical names.
 * An import ptolog cannot follow (`import pypto.language` without `as`, `from ... import *`)
 * is a warning, never silence.
 */
import type { Diagnostic } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { foldDecoratorPath } from './decorators.js';
import { cleanLine } from './layout.js';
import type { LineTable } from './scan.js';
import { FLAG_DIRTY, lineStartsWithWord } from './scan.js';

/** What a local name stands for: a module (`pl` / `pld`) or a member of one (`pl.Tensor`). */
export interface Imports {
  /** Local name → canonical dotted name (`pyl` → `pl`, `Tensor` → `pl.Tensor`, `dist` → `pld`). */
  names: Map<string, string>;
  /** How the module spells each canonical module in inserted text (`pl` → `pyl`). */
  spell: { pl: string; pld: string };
  /** True when the module imports anything from `pypto`. */
  importsPypto: boolean;
  /** Warnings for imports ptolog cannot follow. */
  warnings: Diagnostic[];
}

const MODULES: Record<string, string> = {
  'pypto.language': 'pl',
  'pypto.language.distributed': 'pld',
};

/** The canonical name of `module.member` when it is one of the modules, a member of one, or null. */
function canonicalOf(module: string, member: string): string | null {
  const full = `${module}.${member}`;
  if (MODULES[full]) return MODULES[full]!;
  const m = MODULES[module];
  return m ? `${m}.${member}` : null;
}

/** The modules where PyPTO defines its decorator objects (`jit`, `function`, `inline`, `program`), besides pypto.language. */
const DECORATOR_MODULES: ReadonlySet<string> = new Set([
  'pypto.jit',
  'pypto.jit.decorator',
  'pypto.language.parser',
  'pypto.language.parser.decorator',
]);

/**
 * `from pypto.jit import jit` → `pl.jit`, `from pypto.language.parser.decorator import inline` →
 * `pl.inline`; a decorator module imported by name (`from pypto import jit`) → its path; else null.
 */
function decoratorOf(module: string, member: string): string | null {
  const full = `${module}.${member}`;
  const folded = foldDecoratorPath(full);
  if (folded !== full) return folded;
  return DECORATOR_MODULES.has(full) ? full : null;
}

/** Reads every `import` / `from ... import` line of the module (at any indentation). */
export function readImports(source: SourceText, table: LineTable): Imports {
  const text = source.text;
  const names = new Map<string, string>();
  const warnings: Diagnostic[] = [];
  let importsPypto = false;
  const spell: { pl: string | null; pld: string | null } = { pl: null, pld: null };
  const bind = (local: string, canonical: string): void => {
    names.set(local, canonical);
    if ((canonical === 'pl' || canonical === 'pld') && spell[canonical] === null) spell[canonical] = local;
  };
  const warn = (l: number, message: string): void => {
    warnings.push({
      severity: 'warning',
      code: 'unfollowed-import',
      message,
      location: { source, start: table.start[l]!, end: table.end[l]! },
    });
  };
  for (let l = 0; l < table.count; l++) {
    // Most lines start with neither word: decided by their first character.
    const c = text.charCodeAt(table.start[l]!);
    if (c !== 105 && c !== 102) continue;
    const isImport = lineStartsWithWord(text, table, l, 'import');
    const isFrom = !isImport && lineStartsWithWord(text, table, l, 'from');
    if (!isImport && !isFrom) continue;
    const line = cleanLine(text, table.start[l]!, table.end[l]!, (table.flags[l]! & FLAG_DIRTY) !== 0)
      .replace(/[()]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!/\bpypto\b/.test(line)) continue;
    importsPypto = true;
    if (isImport) {
      for (const part of line.slice('import'.length).split(',')) {
        const m = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
        if (!m) continue;
        const [, mod, as] = m;
        // A module holding PyPTO's decorator objects (`import pypto.jit as pj`, then `@pj.jit`).
        if (as && DECORATOR_MODULES.has(mod!)) bind(as, mod!);
        const canonical = MODULES[mod!];
        if (!canonical) continue;
        if (as) bind(as, canonical);
        else warn(l, `'import ${mod}' without 'as' is not followed by ptolog; write 'import ${mod} as ${canonical}'`);
      }
      continue;
    }
    const m = /^from\s+([\w.]+)\s+import\s+(.*)$/.exec(line);
    if (!m) continue;
    const mod = m[1]!;
    const items = m[2]!;
    if (mod !== 'pypto' && !MODULES[mod] && !DECORATOR_MODULES.has(mod)) continue;
    for (const part of items.split(',')) {
      const t = part.trim();
      if (t === '') continue;
      if (t === '*') {
        warn(
          l,
          `'from ${mod} import *' is not followed by ptolog; import the module with a name, e.g. 'import ${mod} as ${MODULES[mod] ?? 'pl'}'`,
        );
        continue;
      }
      const im = /^(\w+)(?:\s+as\s+(\w+))?$/.exec(t);
      if (!im) continue;
      const member = im[1]!;
      const local = im[2] ?? member;
      const canonical = canonicalOf(mod, member) ?? decoratorOf(mod, member);
      if (canonical) bind(local, canonical);
    }
  }
  if (!names.has('pl') && ![...names.keys()].some((k) => names.get(k) === 'pl' && k !== 'pl')) names.set('pl', 'pl');
  if (!names.has('pld') && ![...names.keys()].some((k) => names.get(k) === 'pld' && k !== 'pld')) names.set('pld', 'pld');
  return { names, spell: { pl: spell.pl ?? 'pl', pld: spell.pld ?? 'pld' }, importsPypto, warnings };
}

/** Local names that stand for `pypto.language` (for the decorator line scan). */
export function languageNames(imports: Imports): string[] {
  return [...imports.names].filter(([, c]) => c === 'pl').map(([k]) => k);
}

/** Local names bound to `pl.<member>` (e.g. `jit`, `program`, `function` imported by name). */
export function memberNames(imports: Imports, member: string): string[] {
  return [...imports.names].filter(([, c]) => c === `pl.${member}`).map(([k]) => k);
}

/** Writes canonical text (`pl.system.fence()`) with the module's own spelling of `pl` / `pld`. */
export function respell(text: string, spell: { pl: string; pld: string }): string {
  if (spell.pl === 'pl' && spell.pld === 'pld') return text;
  return text.replace(/(?<![\w.])(pld?)\./g, (_m, mod: string) => `${mod === 'pl' ? spell.pl : spell.pld}.`);
}
