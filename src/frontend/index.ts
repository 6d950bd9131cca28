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
import { scanLines } from './scan.js';
import { moduleConstants, parseDefines } from './constants.js';
import { ProgramParser } from './program.js';
import { readImports } from './imports.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { lineStartsWithWord } from './scan.js';
import { indentationError } from './indentation.js';
import { enclosingConstants } from './enclosing.js';
import { attachComments } from './comments.js';
import { moduleDynamics } from './dynamics.js';

export { parseDefines };
export { unknownDefines } from './constants.js';

export interface ParseOptions {
  /** `-D NAME=VALUE` definitions: define or override module constants. */
  defines?: ReadonlyMap<string, ConstValue>;
}

/**
 * Parses a module's text. Each program and each function is read on its own: one that cannot
 * be read is reported in `module.problems` (located errors) and left out, the others are still
 * read. `problems` also holds the module's warnings (imports ptolog cannot follow) and, for a
 * module with no program and no JIT kernel, a `no-program` note.
 */
export function parseModuleIsolated(text: string, path: string, opts: ParseOptions = {}): Module {
  const source = new SourceText(path, text);
  if (text.includes('\u0000')) {
    // Not Python text at all: say so instead of reading nothing in silence.
    const at = text.indexOf('\u0000');
    return {
      source,
      constants: new Map(),
      programs: [],
      problems: [{
        severity: 'warning',
        code: 'not-python',
        message: "this file looks binary (it holds NUL bytes): it is not Python text, nothing was read",
        location: { source, start: at, end: at },
      }],
    };
  }
  const table = scanLines(text);
  // Python refuses the whole file on an IndentationError: then nothing of it is read (the
  // errors the program parser finds before it are reported with it, as Python reports the first).
  const bad = indentationError(source, table);
  const constants = moduleConstants(text, table, opts.defines ?? new Map());
  const imports = readImports(source, table);
  const probe = new ProgramParser(source, table, constants, imports);
  const jitFuncs = new Set<string>();
  for (let l = 0; l + 1 < table.count; l++) {
    if (table.indent[l] !== 0 || !probe.isJitDecorator(l)) continue;
    let h = l + 1;
    while (h < table.count && table.indent[h] === 0 && text.charCodeAt(table.start[h]!) === 64) h++;
    if (h < table.count && table.indent[h] === 0 && lineStartsWithWord(text, table, h, 'def')) {
      const m = /^def\s+(\w+)/.exec(text.slice(table.start[h]!, table.end[h]!));
      if (m) jitFuncs.add(m[1]!);
    }
  }
  const parser = new ProgramParser(source, table, constants, imports, jitFuncs);
  const defines = opts.defines ?? new Map<string, ConstValue>();
  const programs: Program[] = [];
  const problems: Diagnostic[] = [...imports.warnings];
  let programsSeen = 0;
  let programsWithErrors = 0;
  let l = 0;
  while (l < table.count) {
    if (parser.isProgramDecorator(l)) {
      programsSeen++;
      // A program inside a builder function or test method sees that function's constants.
      const scope = enclosingConstants(source.text, table, l, constants, defines);
      const p = scope ? new ProgramParser(source, table, scope, imports, jitFuncs) : parser;
      const before = p.problems.length;
      const r = p.parseProgramIsolated(l);
      if (r.program) {
        if (scope) r.program.constants = scope;
        programs.push(r.program);
      }
      if (p.problems.length > before) programsWithErrors++;
      if (p !== parser) for (const d of p.problems) parser.problems.push(d);
      l = r.next;
    } else l++;
  }
  const beforeJit = parser.problems.length;
  const jit = parser.parseJitKernels();
  if (jit) programs.push(jit);
  const jitKernelsWithErrors = parser.problems.length - beforeJit;
  for (const d of parser.problems) problems.push(d);
  if (bad) {
    const first = problems.filter((d) => d.severity === 'error' && (d.location?.start ?? Infinity) <= bad.location!.end);
    return { source, constants, programs: [], problems: [...first, ...(first.length > 0 ? [] : [bad])], spell: imports.spell };
  }
  if (programsSeen === 0 && jitFuncs.size === 0 && !problems.some((d) => d.severity === 'error')) {
    problems.push({
      severity: 'note',
      code: 'no-program',
      message: text.trim() === ''
        ? 'this file is empty: there is no @pl.program class or @pl.jit kernel to read'
        : imports.importsPypto
          ? 'no @pl.program class or @pl.jit kernel here: nothing to read'
          : 'no @pl.program class or @pl.jit kernel here (the file does not import pypto.language): nothing to read',
      location: { source, start: 0, end: 0 },
    });
  }
  const stats = { programs: programsSeen, programsWithErrors, jitKernels: jitFuncs.size, jitKernelsWithErrors };
  const headerComments = attachComments(text, table, programs);
  const dynamics = moduleDynamics(text, table, imports, constants);
  return {
    source, constants, programs, problems, spell: imports.spell, stats,
    ...(headerComments.length > 0 ? { headerComments } : {}),
    ...(dynamics.size > 0 ? { dynamics } : {}),
  };
}

/** Parses a module's text; throws a DiagnosticError holding every error when a program or function cannot be read. */
export function parseModule(text: string, path: string, opts: ParseOptions = {}): Module {
  const m = parseModuleIsolated(text, path, opts);
  const errors = moduleErrors(m);
  if (errors.length > 0) throw new DiagnosticError(errors);
  return m;
}

/** The errors of a module (programs or functions that could not be read). */
export function moduleErrors(m: Module): Diagnostic[] {
  return (m.problems ?? []).filter((d) => d.severity === 'error');
}

/** Reads and parses a file (strict, as parseModule); an unreadable file gives an `unreadable-file` diagnostic with the path. */
export function readModule(path: string, opts: ParseOptions = {}): Module {
  return parseModule(readModuleText(path), path, opts);
}

/** Reads and parses a file, each program and function on its own (as parseModuleIsolated). */
export function readModuleIsolated(path: string, opts: ParseOptions = {}): Module {
  return parseModuleIsolated(readModuleText(path), path, opts);
}

function readModuleText(path: string): string {
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
  return text;
}
