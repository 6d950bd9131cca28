/**
 * The frontend: Python module text → IR `Module`.
 *
 * 1. `scanLines` splits the module into logical lines (string/comment/bracket aware);
 * 2. module constants are read from top-level assignments, `-D` definitions override them;
 * 3. `@pl.program` decorators are found by a line scan at any indentation (also inside
 *    builder functions); everything else in the module is skipped without being parsed;
 * 4. each program is parsed by `ProgramParser` (layout pre-tokenizer + Ohm grammar, in
 *    bounded chunks) into IR with spans into the original text.
 *
 * Every failure is a `DiagnosticError` with a located diagnostic.
 */
import { readFileSync } from 'node:fs';
import { DiagnosticError } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import type { ConstValue, Module, Program } from '../ir/nodes.js';
import { scanLines, type LineTable } from './scan.js';
import { moduleConstants, parseDefines } from './constants.js';
import { ProgramParser } from './program.js';
import { indentationError } from './indentation.js';
import { enclosingConstants } from './enclosing.js';

export { parseDefines };

export interface ParseOptions {
  /** `-D NAME=VALUE` definitions: define or override module constants. */
  defines?: ReadonlyMap<string, ConstValue>;
}

/** Parses a module's text. Throws DiagnosticError on a syntax error or unsupported construct in a program. */
export function parseModule(text: string, path: string, opts: ParseOptions = {}): Module {
  const source = new SourceText(path, text);
  const table = scanLines(text);
  // Python reports the first error of the file: an IndentationError after a syntax error
  // that comes earlier loses to it (the program parser finds those).
  const bad = indentationError(source, table);
  if (bad) {
    try {
      parsePrograms(source, table, moduleConstants(text, table, opts.defines ?? new Map()), opts.defines ?? new Map());
    } catch (e) {
      const at = e instanceof DiagnosticError ? e.diagnostics[0]?.location?.start : undefined;
      if (at !== undefined && at <= bad.location!.end) throw e;
    }
    throw new DiagnosticError([bad]);
  }
  const constants = moduleConstants(text, table, opts.defines ?? new Map());
  return { source, constants, programs: parsePrograms(source, table, constants, opts.defines ?? new Map()) };
}

function parsePrograms(
  source: SourceText,
  table: LineTable,
  constants: ReadonlyMap<string, ConstValue>,
  defines: ReadonlyMap<string, ConstValue>,
): Program[] {
  const parser = new ProgramParser(source, table, constants);
  const programs: Program[] = [];
  let l = 0;
  while (l < table.count) {
    if (ProgramParser.isProgramDecorator(source.text, table, l)) {
      // A program inside a builder function or test method sees that function's constants.
      const scope = enclosingConstants(source.text, table, l, constants, defines);
      const { program, next } = (scope ? new ProgramParser(source, table, scope) : parser).parseProgram(l);
      if (scope) program.constants = scope;
      programs.push(program);
      l = next;
    } else l++;
  }
  return programs;
}

/** Reads and parses a file; an unreadable file gives an `unreadable-file` diagnostic with the path. */
export function readModule(path: string, opts: ParseOptions = {}): Module {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file'
      : code === 'EISDIR' ? 'it is a directory'
      : code === 'EACCES' ? 'permission denied'
      : e instanceof Error ? e.message : String(e);
    throw new DiagnosticError([
      { severity: 'error', code: 'unreadable-file', message: `cannot read ${path}: ${why}`, path },
    ]);
  }
  return parseModule(text, path, opts);
}
