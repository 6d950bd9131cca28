// Reads rule files and resolves `#include` (relative to the including file, once per program).
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DiagnosticError, errorAt, type Diagnostic } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import type { ParsedFile } from './ast.js';
import { parseFile } from './parser.js';

/** A rule file given by path (read from disk) or in memory. */
export type RuleSource = string | { path: string; text: string };

export interface LoadedFile {
  source: SourceText;
  parsed: ParsedFile;
}

/** Reads a file's text or returns undefined when it does not exist or cannot be read. */
export type FileReader = (absPath: string) => string | undefined;

/** Parses one rule file (parseFile, or a caller's memo of it: a parsed file is never mutated). */
export type FileParser = (source: SourceText) => ParsedFile;

const diskReader: FileReader = (p) => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Parses every source and every file they include (each resolved path once, in include order).
 * An include is looked up beside the including file, then in each of `includeDirs` by its path
 * and then by its file name (so a copy of `rules/examples/x.dl` still finds `../ops.dl`).
 */
export function loadFiles(
  sources: readonly RuleSource[],
  read: FileReader = diskReader,
  includeDirs: readonly string[] = [],
  parse: FileParser = parseFile,
): LoadedFile[] {
  const memory = new Map<string, string>();
  for (const s of sources) if (typeof s !== 'string') memory.set(resolve(s.path), s.text);
  const readAny = (abs: string): string | undefined => memory.get(abs) ?? read(abs);
  const seen = new Set<string>();
  const files: LoadedFile[] = [];
  const errors: Diagnostic[] = [];

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
      let display = join(dirname(path), inc.path);
      let incText = seen.has(resolve(display)) ? '' : readAny(resolve(display));
      if (incText === undefined) {
        const found = includeDirs
          .flatMap((d) => [join(d, inc.path), join(d, inc.path.replace(/^(\.\.?\/)+/, '')), join(d, basename(inc.path))])
          .find((c) => seen.has(resolve(c)) || readAny(resolve(c)) !== undefined);
        if (found !== undefined) {
          display = found;
          incText = readAny(resolve(found));
        }
      }
      const abs = resolve(display);
      if (seen.has(abs)) continue;
      seen.add(abs);
      if (incText === undefined) {
        errors.push(
          errorAt(inc.loc.source, inc.loc.start, inc.loc.end, 'include-not-found', `cannot read the included file ${display}`, {
            fix: includeDirs.length > 0 ? `include paths are relative to the including file, then to ${includeDirs.join(', ')}; check the name.` : 'include paths are relative to the including file; check the name and that the file exists.',
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
    if (text === undefined) {
      errors.push({ severity: 'error', code: 'file-not-found', message: `cannot read the rule file ${path}`, path, fix: 'check the path.' });
      continue;
    }
    visit(path, text);
  }
  if (errors.length > 0) throw new DiagnosticError(errors);
  return files;
}
