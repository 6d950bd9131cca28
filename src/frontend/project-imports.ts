/**
 * Helpers imported from the project's other modules (`from helpers import ping`, `from .comm
 * import ping as p`, `import pkg.comm as c; c.ping(...)`), found as Python finds them: a relative
 * import from the importing file's package, an absolute one in the audited file's folder (for a
 * helper module read on its behalf too: Python's `sys.path[0]`), then in each import root (the
 * project's package roots, configured extra roots). The imported module
 * is read through the caller's `ModuleReader` (the library touches no file system), and its
 * `@pl.jit.inline` / `@pl.inline` functions are the helpers PyPTO's InlineFunctions pass expands
 * at the call: such a call is no opaque write. An import ptolog cannot follow is said (located
 * `unresolved-import` note) where a kernel calls it.
 */
import { dirname, join, normalize } from 'node:path';
import type { Diagnostic } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { decoratorName } from './decorators.js';
import { readImports } from './imports.js';
import { cleanLine } from './layout.js';
import { FLAG_DIRTY, type LineTable, lineStartsWithWord, scanLines } from './scan.js';

/** How the frontend reads the project's other modules (given by the CLI, or a test). */
export interface ModuleReader {
  /** The text of the file at `path`; `null` when there is no such file; `{ error }` when it exists but cannot be read. */
  read(path: string): string | null | { error: string };
  /** Directories searched for an absolute import after the importing file's own folder, in order. */
  roots: readonly string[];
}

/** One imported name of a module (not from pypto). */
export interface ProjectImport {
  /** The local name (`p` in `from .comm import ping as p`; `c` in `import pkg.comm as c`; `pkg` in `import pkg.comm`). */
  local: string;
  /** The module as written, without its leading dots (`comm`, `pkg.comm`). */
  module: string;
  /** The number of leading dots (0: an absolute import). */
  level: number;
  /** The imported member (`ping`), or null for `import module [as name]`. */
  member: string | null;
  /** The import statement's span. */
  start: number;
  end: number;
}

/** Modules ptolog never looks for (the standard library and frameworks a test imports): no note when they are not found. */
const EXTERNAL: ReadonlySet<string> = new Set([
  'math',
  'os',
  'sys',
  'functools',
  'itertools',
  'typing',
  'dataclasses',
  'enum',
  'collections',
  'operator',
  're',
  'numpy',
  'torch',
  'pytest',
  'unittest',
  'pathlib',
  'logging',
  'time',
  'random',
  'json',
  'abc',
  'contextlib',
  'inspect',
  'copy',
  'argparse',
  'subprocess',
  'tempfile',
  'shutil',
  'textwrap',
  'warnings',
  'ast',
]);

/** Every `import` / `from ... import` of the module that is not PyPTO's (at any indentation). */
export function projectImports(source: SourceText, table: LineTable): ProjectImport[] {
  const text = source.text;
  const out: ProjectImport[] = [];
  for (let l = 0; l < table.count; l++) {
    const c = text.charCodeAt(table.start[l]!);
    if (c !== 105 && c !== 102) continue;
    const isImport = lineStartsWithWord(text, table, l, 'import');
    if (!isImport && !lineStartsWithWord(text, table, l, 'from')) continue;
    const start = table.start[l]!;
    const end = table.end[l]!;
    const line = cleanLine(text, start, end, (table.flags[l]! & FLAG_DIRTY) !== 0)
      .replace(/[()]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (isImport) {
      for (const part of line.slice('import'.length).split(',')) {
        const m = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
        if (!m || /^pypto(\.|$)/.test(m[1]!)) continue;
        out.push({ local: m[2] ?? m[1]!.split('.')[0]!, module: m[1]!, level: 0, member: null, start, end });
      }
      continue;
    }
    const m = /^from\s+(\.*)([\w.]*)\s+import\s+(.*)$/.exec(line);
    if (!m || /^pypto(\.|$)/.test(m[2]!) || (m[1] === '' && m[2] === '')) continue;
    for (const part of m[3]!.split(',')) {
      const im = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
      if (!im) continue;
      out.push({ local: im[2] ?? im[1]!, module: m[2]!, level: m[1]!.length, member: im[1]!, start, end });
    }
  }
  return out;
}

/** Where a module was found: its file and text, or why not. */
export type Resolved =
  | { kind: 'found'; path: string; text: string }
  | { kind: 'unreadable'; path: string; why: string }
  | { kind: 'missing'; searched: string[] };

/** The candidate files of dotted module `module` under directory `base` (`a/b.py`, `a/b/__init__.py`). */
function candidates(base: string, module: string): string[] {
  const rel = module === '' ? '' : join(...module.split('.'));
  return rel === '' ? [join(base, '__init__.py')] : [join(base, `${rel}.py`), join(base, rel, '__init__.py')];
}

/**
 * Finds module `module` imported with `level` dots from the file `from`, as Python's import system
 * does (see the file comment): an absolute import searches `home` (the folder of the file the run
 * audits, Python's `sys.path[0]`; default `from`'s own folder), then the roots.
 */
export function resolveModule(from: string, module: string, level: number, reader: ModuleReader, home?: string): Resolved {
  let bases: string[];
  if (level > 0) {
    let base = dirname(from);
    for (let i = 1; i < level; i++) base = dirname(base);
    bases = [base];
  } else {
    bases = [...new Set([home ?? dirname(from), ...reader.roots].map((d) => normalize(d)))];
  }
  const searched: string[] = [];
  for (const base of bases) {
    for (const path of candidates(base, module)) {
      const p = normalize(path);
      const got = reader.read(p);
      if (got === null) continue;
      if (typeof got === 'string') return { kind: 'found', path: p, text: got };
      return { kind: 'unreadable', path: p, why: got.error };
    }
    searched.push(normalize(base));
  }
  return { kind: 'missing', searched };
}

/** The module's names defined by a decorated `def` at indentation 0 whose decorator is `@pl.jit.inline` / `@pl.inline` (through its imports). */
export function inlineHelpers(text: string): Set<string> {
  const out = new Set<string>();
  if (!text.includes('@')) return out;
  const table = scanLines(text);
  const source = new SourceText('', text);
  const names = readImports(source, table).names;
  for (let l = 0; l < table.count; l++) {
    if (table.indent[l] !== 0 || text.charCodeAt(table.start[l]!) !== 64) continue;
    let h = l;
    let inline = false;
    while (h < table.count && table.indent[h] === 0 && text.charCodeAt(table.start[h]!) === 64) {
      const line = cleanLine(text, table.start[h]!, table.end[h]!, (table.flags[h]! & FLAG_DIRTY) !== 0);
      const d = decoratorName(line, names);
      if (d === 'pl.jit.inline' || d === 'pl.inline') inline = true;
      h++;
    }
    if (inline && h < table.count && table.indent[h] === 0) {
      const m = /^def\s+(\w+)/.exec(text.slice(table.start[h]!, table.end[h]!));
      if (m) out.add(m[1]!);
    }
    l = h;
  }
  return out;
}

/** The imported helpers of a module: the local names (or dotted `alias.name`) that call one, and the imports that could not be followed. */
export interface ImportedHelpers {
  /** Local name (`ping`, `c.ping`) → the helper's file and name, and the import that binds it. */
  helpers: Map<string, { path: string; name: string; at?: ProjectImport }>;
  /** Imports not followed, each with the note to give where a kernel calls the name. */
  unfollowed: Map<string, { at: ProjectImport; why: string }>;
}

/** How many re-exports (`from .b import ping` in the imported module) are followed. */
const MAX_REEXPORTS = 4;

/**
 * Follows the imports of the module at `path` whose local names the text calls (`name(`,
 * `name.member(`), through `reader`: each inline helper found becomes a local (or dotted) name
 * of `helpers`; an import that cannot be followed, of `unfollowed`. `home`: the folder an
 * absolute import is searched in first (resolveModule).
 */
export function importedHelpers(source: SourceText, table: LineTable, path: string, reader: ModuleReader, home?: string): ImportedHelpers {
  const out: ImportedHelpers = { helpers: new Map(), unfollowed: new Map() };
  const text = source.text;
  for (const im of projectImports(source, table)) {
    if (EXTERNAL.has(im.module.split('.')[0]!) && im.level === 0) continue;
    const called = new RegExp(`(?<![\\w.])${im.local}(?:\\s*\\.\\s*\\w+)*\\s*\\(`).test(text);
    if (!called) continue;
    const dots = '.'.repeat(im.level);
    if (im.member !== null) {
      // `from M import member`: a function of M, or the submodule M.member.
      const found = findHelper(path, im.module, im.level, im.member, reader, 0, home);
      if (found.kind === 'helper') {
        out.helpers.set(im.local, { path: found.path, name: im.member, at: im });
        continue;
      }
      if (found.kind === 'module') {
        for (const h of inlineHelpers(found.text)) out.helpers.set(`${im.local}.${h}`, { path: found.path, name: h, at: im });
        continue;
      }
      if (found.kind === 'missing' || found.kind === 'unreadable') out.unfollowed.set(im.local, { at: im, why: found.why });
      continue;
    }
    // `import M as c` / `import M`: calls `c.name(...)` / `M.name(...)`.
    const r = resolveModule(path, im.module, 0, reader, home);
    if (r.kind === 'found') {
      const prefix = im.local === im.module.split('.')[0] && im.module.includes('.') ? im.module : im.local;
      for (const h of inlineHelpers(r.text)) out.helpers.set(`${prefix}.${h}`, { path: r.path, name: h, at: im });
    } else {
      out.unfollowed.set(im.local, {
        at: im,
        why:
          r.kind === 'unreadable'
            ? `${r.path} cannot be read (${r.why})`
            : `module '${dots}${im.module}' is not found (searched ${r.searched.join(', ')})${ownFolder(path, im.module, reader, home)}`,
      });
    }
  }
  return out;
}

type Found =
  | { kind: 'helper'; path: string }
  | { kind: 'module'; path: string; text: string }
  | { kind: 'other' }
  | { kind: 'missing' | 'unreadable'; why: string };

/** `member` of module `module` (level dots, from file `from`): an inline helper (followed through re-exports), a submodule, or something else. */
function findHelper(
  from: string,
  module: string,
  level: number,
  member: string,
  reader: ModuleReader,
  depth: number,
  home?: string,
): Found {
  const r = resolveModule(from, module, level, reader, home);
  const dots = '.'.repeat(level);
  if (r.kind === 'unreadable') return { kind: 'unreadable', why: `${r.path} cannot be read (${r.why})` };
  if (r.kind === 'missing') {
    const hint = level === 0 ? ownFolder(from, module, reader, home) : '';
    return { kind: 'missing', why: `module '${dots}${module}' is not found (searched ${r.searched.join(', ')})${hint}` };
  }
  if (inlineHelpers(r.text).has(member)) return { kind: 'helper', path: r.path };
  // A submodule (`from pkg import comm`).
  const sub = resolveModule(from, module === '' ? member : `${module}.${member}`, level, reader, home);
  if (sub.kind === 'found' && sub.path !== r.path) return { kind: 'module', path: sub.path, text: sub.text };
  // Re-exported: `from .b import member` in the module.
  const src = new SourceText(r.path, r.text);
  for (const im of projectImports(src, scanLines(r.text))) {
    if (im.local !== member || im.member === null) continue;
    if (depth >= MAX_REEXPORTS) return { kind: 'missing', why: `'${member}' is re-exported more than ${MAX_REEXPORTS} times` };
    return findHelper(r.path, im.module, im.level, im.member, reader, depth + 1, home);
  }
  // Defined there some other way (a plain function, a kernel, a name): no inline helper.
  if (
    new RegExp(
      `^(?:\\s*(?:async\\s+)?(?:def|class)\\s+${member}\\b|\\s*${member}\\s*[:=]|\\s*import\\b.*\\b${member}\\b|.*\\bas\\s+${member}\\b)`,
      'm',
    ).test(r.text)
  )
    return { kind: 'other' };
  return { kind: 'missing', why: `${r.path} does not define '${member}'` };
}

/**
 * Where an absolute import not found from `home` would be found in the importing file's own
 * folder (which Python searches only for the file it runs): said, with the relative import to write.
 */
function ownFolder(from: string, module: string, reader: ModuleReader, home: string | undefined): string {
  if (home === undefined || normalize(home) === normalize(dirname(from))) return '';
  if (resolveModule(from, module, 1, reader).kind !== 'found') return '';
  return `; it is in the folder of ${from}, which Python searches only for the file it runs: write \`from .${module} import ...\``;
}

/** The located note for an import that could not be followed, called as `called` in a kernel (or in the inline helper `by`). */
export function unfollowedNote(source: SourceText, u: { at: ProjectImport; why: string }, called: string, by?: string): Diagnostic {
  const mod = `${'.'.repeat(u.at.level)}${u.at.module}`;
  return {
    severity: 'note',
    code: 'unresolved-import',
    message: `${by === undefined ? 'a kernel' : `the inline helper '${by}'`} calls '${called}', imported from '${mod}', which ptolog cannot read: ${u.why}; the call is read as an opaque write (give the module's folder with --import-root or import-roots in [tool.ptolog])`,
    location: { source, start: u.at.start, end: u.at.end },
  };
}
