import { type Dirent, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import type { Diagnostic } from '../report/diagnostic.js';
import { unreadableReason } from './files.js';

/** How directories are walked. */
export interface WalkOptions {
  /** Globs of paths never read inside a directory or glob (matched against the path relative to `excludeRoot` and against each name). */
  exclude: readonly string[];
  excludeRoot: string;
  /** Lists a directory (default: readdirSync); tests inject failures here. */
  readDir?: (dir: string) => Dirent[];
}

/** The files the command reads, in a stable order, and what could not be found. */
export interface Targets {
  /** Paths as given or as found under a directory; `-` is standard input. */
  files: string[];
  errors: Diagnostic[];
}

const GLOB_CHARS = /[*?[\]{}]/;

interface GitIgnore {
  dir: string;
  ig: Ignore;
}

function readGitignore(dir: string): GitIgnore | undefined {
  const p = join(dir, '.gitignore');
  if (!existsSync(p)) return undefined;
  try {
    return { dir, ig: ignore().add(readFileSync(p, 'utf8')) };
  } catch {
    return undefined;
  }
}

/** The .gitignore files of `dir`'s ancestors up to the repository root (the directory holding `.git`). */
function ancestorIgnores(dir: string): GitIgnore[] {
  const out: GitIgnore[] = [];
  let d = dirname(resolve(dir));
  const chain: string[] = [];
  for (;;) {
    chain.push(d);
    if (existsSync(join(d, '.git'))) break;
    const up = dirname(d);
    if (up === d) return []; // not in a repository: .gitignore files above the start are not ours
    d = up;
  }
  for (const c of chain.reverse()) {
    const g = readGitignore(c);
    if (g) out.push(g);
  }
  return out;
}

function ignoredByGit(abs: string, isDir: boolean, stack: readonly GitIgnore[]): boolean {
  for (const g of stack) {
    const rel = relative(g.dir, abs).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) continue;
    if (g.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

function excluder(o: WalkOptions): (abs: string) => boolean {
  const full = picomatch([...o.exclude], { dot: true });
  const names = o.exclude.filter((g) => !g.includes('/'));
  const name = names.length > 0 ? picomatch(names, { dot: true }) : () => false;
  return (abs) => {
    const rel = relative(o.excludeRoot, abs).split(sep).join('/');
    if (!rel.startsWith('..') && rel !== '' && full(rel)) return true;
    return rel.split('/').some((seg) => seg !== '..' && seg !== '' && name(seg));
  };
}

/**
 * Every `.py` file under `dir` (sorted, depth first), skipping excluded and git-ignored paths.
 * A directory that cannot be listed is reported to `unreadable` (never skipped in silence).
 */
function walk(dir: string, o: WalkOptions, unreadable: (d: Diagnostic) => void, keep: (abs: string) => boolean = () => true): string[] {
  const readDir = o.readDir ?? ((d: string) => readdirSync(d, { withFileTypes: true }));
  const excluded = excluder(o);
  const out: string[] = [];
  const visit = (d: string, stack: GitIgnore[]): void => {
    const g = readGitignore(d);
    const here = g ? [...stack, g] : stack;
    let entries;
    try {
      entries = readDir(d);
    } catch (e) {
      unreadable({
        severity: 'error',
        code: 'unreadable-file',
        path: d,
        message: `cannot read the directory ${d}: ${unreadableReason(e, d)}; its files are not checked.`,
      });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(d, e.name);
      const abs = resolve(p);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = statSync(p);
          isDir = false; // never follow directory links (no cycles)
          isFile = st.isFile();
        } catch {
          continue;
        }
      }
      if (e.name === '.git' || excluded(abs) || ignoredByGit(abs, isDir, here)) continue;
      if (isDir) visit(p, here);
      else if (isFile && e.name.endsWith('.py') && keep(abs)) out.push(p);
    }
  };
  visit(dir, ancestorIgnores(dir));
  return out;
}

/**
 * Expands command-line paths: a file is read as given (even if excluded); a directory gives
 * its `.py` files recursively; a glob (`kernels/**\/*.py`) the files it matches; `-` is standard
 * input. Directories and globs skip excluded and git-ignored paths. A path that matches
 * nothing is an `unreadable-file` error. Duplicates are dropped; order follows the arguments.
 */
export function expandTargets(args: readonly string[], o: WalkOptions): Targets {
  const files: string[] = [];
  const errors: Diagnostic[] = [];
  const seen = new Set<string>();
  const add = (p: string): void => {
    const k = p === '-' ? '-' : resolve(p);
    if (seen.has(k)) return;
    seen.add(k);
    files.push(p);
  };
  for (const a of args) {
    if (a === '-') {
      add(a);
      continue;
    }
    let st;
    let why: unknown;
    try {
      st = statSync(a);
    } catch (e) {
      st = undefined;
      why = e;
    }
    if (st?.isDirectory()) {
      for (const f of walk(a, o, (d) => errors.push(d))) add(f);
    } else if (st) {
      add(a);
    } else if (GLOB_CHARS.test(a)) {
      const { base } = picomatch.scan(a);
      const match = picomatch(a.split(sep).join('/'), { dot: false });
      const root = base === '' ? '.' : base;
      const found = existsSync(root)
        ? walk(
            root,
            o,
            (d) => errors.push(d),
            (abs) => match(relative(process.cwd(), abs).split(sep).join('/')) || match(abs),
          )
        : [];
      if (found.length === 0) errors.push({ severity: 'error', code: 'unreadable-file', path: a, message: `no file matches ${a}.` });
      for (const f of found) add(f);
    } else {
      errors.push({ severity: 'error', code: 'unreadable-file', path: a, message: `cannot read ${a}: ${unreadableReason(why, a)}.` });
    }
  }
  return { files, errors };
}
