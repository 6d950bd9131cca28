// Reads rule files and resolves `#include` (relative, absolute, <library/...>; each file once per program).
import { closeSync, openSync, readFileSync, readSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { type Diagnostic, DiagnosticError, errorAt } from '../../report/diagnostic.js';
import { SourceText } from '../../report/source.js';
import type { IncludeDecl, ParsedFile } from './ast.js';
import { parseFile } from './parser.js';

/** A rule file given by path (read from disk) or in memory. */
export type RuleSource = string | { path: string; text: string };

export interface LoadedFile {
  source: SourceText;
  parsed: ParsedFile;
}

/** What a reader found at a path that is not a regular file (`a directory`, `a character device`). */
export interface NotRegular {
  notRegular: string;
}

/** What a reader found at a path holding more than `limit` bytes (`bytes` when its size is known). */
export interface TooLarge {
  tooLarge: true;
  bytes?: number;
  limit: number;
}

/**
 * The most bytes a rule file may hold (the op catalog, the largest shipped, holds about 100 KB):
 * a larger file (a binary, a sparse file, `/proc/self/pagemap`) is a located error, never read whole.
 */
export const MAX_RULE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads a file's text; undefined when it does not exist or cannot be read; NotRegular for a
 * device, FIFO or directory; TooLarge past MAX_RULE_FILE_BYTES.
 */
export type FileReader = (absPath: string) => string | undefined | NotRegular | TooLarge;

/** What kind of non-regular file a stat describes. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

// Only regular files are read: `/dev/zero` would grow without end and `/dev/stdin` block.

/** Parses one rule file (parseFile, or a caller's memo of it: a parsed file is never mutated). */
export type FileParser = (source: SourceText) => ParsedFile;

/** Reads a rule file from disk (see FileReader): the reader loadFiles uses by default. */
export const readRuleFile: FileReader = (p) => {
  try {
    const st = statSync(p);
    if (!st.isFile()) return { notRegular: kindOf(st) };
    if (st.size > MAX_RULE_FILE_BYTES) return { tooLarge: true, bytes: st.size, limit: MAX_RULE_FILE_BYTES };
    // A size of 0 may be a file whose size is not known before reading it (`/proc`, `/sys`): read it up to the limit.
    if (st.size === 0) return readBounded(p);
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
};

/** A file's text read in pieces, or TooLarge as soon as it passes MAX_RULE_FILE_BYTES. */
function readBounded(p: string): string | TooLarge {
  const fd = openSync(p, 'r');
  try {
    const pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_RULE_FILE_BYTES) return { tooLarge: true, limit: MAX_RULE_FILE_BYTES };
      pieces.push(buf.subarray(0, n));
    }
    return Buffer.concat(pieces).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** How a TooLarge file is described: its size when known, and the limit. */
function tooLargeText(t: TooLarge): string {
  const mb = (n: number): string => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
  return `holds ${t.bytes !== undefined ? `${mb(t.bytes)}, ` : ''}more than the ${mb(t.limit)} (${t.limit} bytes) ptolog reads as a rule file`;
}

/** Where `#include <name/...>` is looked for besides the include paths (`{ ptolog: <shipped rules> }`). */
export type Libraries = Readonly<Record<string, string>>;

/**
 * Parses every source and every file they include (each resolved path once, in include order).
 * `#include "p"`: an absolute `p` as it is; otherwise beside the including file, then in each of
 * `includeDirs` by its path and then by its file name (so a copy of `rules/examples/x.dl` still
 * finds `../ops.dl`). `#include <lib/p>`: in each of `includeDirs`, then `libraries[lib]/p`.
 * Only regular files are read (a located error for a directory, device or FIFO).
 */
export function loadFiles(
  sources: readonly RuleSource[],
  read: FileReader = readRuleFile,
  includeDirs: readonly string[] = [],
  libraries: Libraries = {},
  parse: FileParser = parseFile,
): LoadedFile[] {
  const memory = new Map<string, string>();
  for (const s of sources) if (typeof s !== 'string') memory.set(resolve(s.path), s.text);
  // Each path is read once per load (looking an include up reads it, then it is loaded).
  const reads = new Map<string, ReturnType<FileReader>>();
  const readAny = (abs: string): ReturnType<FileReader> => {
    const m = memory.get(abs);
    if (m !== undefined) return m;
    if (!reads.has(abs)) reads.set(abs, read(abs));
    return reads.get(abs);
  };
  const exists = (c: string): boolean => seen.has(resolve(c)) || readAny(resolve(c)) !== undefined;
  const seen = new Set<string>();
  const files: LoadedFile[] = [];
  const errors: Diagnostic[] = [];

  /** The path an include names, as the user reads it (undefined when nowhere to be found). */
  const locate = (from: string, inc: IncludeDecl): string | undefined => {
    if (isAbsolute(inc.path)) return exists(inc.path) ? inc.path : undefined;
    if (inc.system) {
      const slash = inc.path.indexOf('/');
      const lib = slash > 0 ? libraries[inc.path.slice(0, slash)] : undefined;
      const candidates = [
        ...includeDirs.map((d) => join(d, inc.path)),
        ...(lib !== undefined ? [join(lib, inc.path.slice(slash + 1))] : []),
      ];
      return candidates.find(exists);
    }
    const beside = join(dirname(from), inc.path);
    if (exists(beside)) return beside;
    return includeDirs
      .flatMap((d) => [join(d, inc.path), join(d, inc.path.replace(/^(\.\.?\/)+/, '')), join(d, basename(inc.path))])
      .find(exists);
  };

  const notFound = (inc: IncludeDecl, from: string): Diagnostic => {
    const where = inc.system
      ? `#include <...> is looked up in the include paths (-I)${
          Object.keys(libraries).length > 0
            ? ` and ${Object.keys(libraries)
                .map((l) => `<${l}/...> in ${libraries[l]}`)
                .join(', ')}`
            : ''
        }`
      : isAbsolute(inc.path)
        ? 'an absolute include path is read as it is'
        : `include paths are relative to the including file (${dirname(from)})${includeDirs.length > 0 ? `, then to ${includeDirs.join(', ')}` : ''}`;
    return errorAt(inc.loc.source, inc.loc.start, inc.loc.end, 'include-not-found', `cannot find the included file ${inc.path}`, {
      fix: `${where}; check the name${includeDirs.length === 0 && !isAbsolute(inc.path) ? ', or add a directory with -I DIR' : ''}.`,
    });
  };

  const visit = (path: string, text: string): void => {
    const source = new SourceText(path, text);
    let parsed: ParsedFile;
    try {
      parsed = parse(source);
    } catch (e) {
      if (e instanceof DiagnosticError) {
        errors.push(...e.diagnostics);
        return;
      }
      throw e;
    }
    files.push({ source, parsed });
    for (const inc of parsed.includes) {
      const display = locate(path, inc);
      if (display === undefined) {
        errors.push(notFound(inc, path));
        continue;
      }
      const abs = resolve(display);
      if (seen.has(abs)) continue;
      seen.add(abs);
      const incText = readAny(abs);
      if (incText !== undefined && typeof incText !== 'string' && 'tooLarge' in incText) {
        errors.push(
          errorAt(inc.loc.source, inc.loc.start, inc.loc.end, 'file-too-large', `the included file ${display} ${tooLargeText(incText)}`, {
            fix: 'include a rule file (.dl): a larger file is not read (split a very large rule file in several).',
          }),
        );
        continue;
      }
      if (typeof incText !== 'string') {
        const why = incText === undefined ? 'cannot be read' : `is ${incText.notRegular}, not a regular file`;
        errors.push(
          errorAt(inc.loc.source, inc.loc.start, inc.loc.end, 'include-not-found', `the included path ${display} ${why}`, {
            fix: 'include a rule file (.dl); devices, pipes and directories are not read.',
          }),
        );
        continue;
      }
      visit(display, incText);
    }
  };

  for (const s of sources) {
    const path = typeof s === 'string' ? s : s.path;
    const abs = resolve(path);
    if (seen.has(abs)) continue;
    seen.add(abs);
    const text = typeof s === 'string' ? read(abs) : s.text;
    if (text !== undefined && typeof text !== 'string' && 'tooLarge' in text) {
      errors.push({
        severity: 'error',
        code: 'file-too-large',
        message: `the rule file ${path} ${tooLargeText(text)}`,
        path,
        fix: 'give a rule file (.dl): a larger file is not read.',
      });
      continue;
    }
    if (typeof text !== 'string') {
      const why = text === undefined ? 'cannot read the rule file' : `the rule file is ${text.notRegular}, not a regular file:`;
      errors.push({
        severity: 'error',
        code: 'file-not-found',
        message: `${why} ${path}`,
        path,
        fix: 'check the path (rule files are read only from regular files).',
      });
      continue;
    }
    visit(path, text);
  }
  if (errors.length > 0) throw new DiagnosticError(errors);
  return files;
}
