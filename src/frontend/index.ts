/**
 * The frontend: Python module text → IR `Module`.
 *
 * 1. `scanLines` splits the module into logical lines (string/comment/bracket aware);
 * 2. module constants are read from top-level assignments, `-D` definitions override them;
 * 3. `@pl.program` decorators are found by a line scan at any indentation (also inside
 *    builder functions); everything else in the module is skipped without being parsed;
 * 4. each program is parsed by `ProgramParser` (layout pre-tokenizer + the DSL parser, in
 *    bounded chunks) into IR with spans into the original text.
 *
 * Every failure is a `DiagnosticError` with a located diagnostic.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { beyondExactRange } from '../ir/consts.js';
import { dotted } from '../ir/dotted.js';
import type { ConstValue, FunctionDef, Module, ModulePart, Program, Stmt } from '../ir/nodes.js';
import { type FunctionVisitor, walkBody, walkFunction, walkProgram } from '../ir/visit.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { DiagnosticError } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { attachComments } from './comments.js';
import { constantsTimeline, parseDefines } from './constants.js';
import { moduleDynamics } from './dynamics.js';
import { enclosingConstants } from './enclosing.js';
import { foreignHelpers, type HelperModule } from './foreign-helpers.js';
import { readImports } from './imports.js';
import { indentationError } from './indentation.js';
import { LazyBlocks, type LazySizes } from './lazy-blocks.js';
import { type BlockOptions, ProgramParser } from './program.js';
import { type ImportedHelpers, importedHelpers, type ModuleReader, unfollowedNote } from './project-imports.js';
import { type LineTable, lineStartsWithWord, scanLines } from './scan.js';
import { unboundDecorators } from './unbound-decorators.js';

export type { BlockOptions } from './block-parser.js';
export { unknownDefines } from './constants.js';
export { type LazySizes, StreamAbandoned } from './lazy-blocks.js';
export type { ModuleReader } from './project-imports.js';
export { parseDefines };

export interface ParseOptions {
  /** `-D NAME=VALUE` definitions: define or override module constants. */
  defines?: ReadonlyMap<string, ConstValue>;
  /**
   * Read large blocks as fact extraction reaches them (see lazy-blocks.ts): the module is for
   * extractFacts with `consume` alone (Module.pending). Where only a whole parse reports exactly
   * (an error in a lazily read block, `a; b`), parsing or extraction throws StreamAbandoned:
   * parse the text again without it.
   */
  streaming?: boolean | LazySizes;
  /**
   * Reads the project's other modules: a call of an inline helper imported from one is read as
   * PyPTO inlines it (no opaque write), an import that cannot be followed is a note where a kernel
   * calls it (project-imports.ts). Absent: imports are not followed.
   */
  modules?: ModuleReader;
  /**
   * With `modules`: read the bodies of the imported helpers into the module, and transitively
   * those of the helpers they import (foreign-helpers.ts), so that they are judged as inlined into
   * their callers here (default true); false: body-less stand-ins (how each helper module is
   * parsed for the run's file, which reads the bodies itself).
   */
  importBodies?: boolean;
  /** How block bodies are parsed (chunk size, statement-group cache): for tests and benchmarks, defaults otherwise. */
  blocks?: BlockOptions;
}

/**
 * Parses a module's text. Each program and each function is read on its own: one that cannot
 * be read is reported in `module.problems` (located errors) and left out, the others are still
 * read. `problems` also holds the module's warnings (imports ptolog cannot follow) and, for a
 * module with no program and no JIT kernel, a `no-program` note.
 */
export function parseModuleIsolated(text: string, path: string, opts: ParseOptions = {}): Module {
  return parseWithImports(text, path, opts).module;
}

/**
 * parseModuleIsolated, and the module's imported helpers (null when imports are not followed).
 * `home`: the folder absolute imports are searched in first (the run's file's: Python's `sys.path[0]`).
 */
function parseWithImports(text: string, path: string, opts: ParseOptions, home?: string): HelperModule {
  const source = new SourceText(path, text);
  if (text.includes('\u0000')) {
    // Not Python text at all: say so instead of reading nothing in silence.
    const at = text.indexOf('\u0000');
    const module: Module = {
      source,
      constants: new Map(),
      programs: [],
      problems: [
        {
          severity: 'warning',
          code: 'not-python',
          message: 'this file looks binary (it holds NUL bytes): it is not Python text, nothing was read',
          location: { source, start: at, end: at },
        },
      ],
    };
    return { module, imported: null };
  }
  const table = scanLines(text);
  // Python refuses the whole file on an IndentationError: then nothing of it is read (the
  // errors the program parser finds before it are reported with it, as Python reports the first).
  const bad = indentationError(source, table);
  const inexactConstants: { start: number; end: number }[] = [];
  const timeline = constantsTimeline(text, table, opts.defines ?? new Map(), inexactConstants);
  const constants = timeline.final;
  const imports = readImports(source, table);
  const probe = new ProgramParser(source, table, constants, imports, new Set());
  const jitFuncs = new Set<string>();
  for (let l = 0; l + 1 < table.count; l++) {
    if (table.indent[l] !== 0 || !probe.isJitDecorator(l)) continue;
    let h = l + 1;
    while (h < table.count && table.indent[h] === 0 && text.charCodeAt(table.start[h]!) === 64) h++;
    if (h < table.count && table.indent[h] === 0 && lineStartsWithWord(text, table, h, 'def')) {
      const m = DEF_NAME.exec(text.slice(table.start[h]!, table.end[h]!));
      if (m) jitFuncs.add(m[1]!.normalize('NFKC'));
    }
  }
  const nested = nestedJitKernels(text, table, probe, jitFuncs);
  const localKernels = jitFuncs.size;
  // (The run's file reads each module once: a helper module is reached by several imports, at several depths.)
  const modules = opts.modules && opts.importBodies !== false ? onceReader(opts.modules) : opts.modules;
  const imported = modules ? importedHelpers(source, table, path, modules, home) : null;
  if (imported) for (const name of imported.helpers.keys()) if (!jitFuncs.has(name)) jitFuncs.add(name);
  // Streaming: the chunks parsed later get the notes a whole parse gives them (set after the parse).
  let chunkNotes: ((stmts: readonly Stmt[]) => void) | null = null;
  // (After an indentation error the first errors of the whole parse are reported: no streaming.)
  const lazy =
    opts.streaming && !bad ? new LazyBlocks(text, opts.streaming === true ? {} : opts.streaming, (stmts) => chunkNotes?.(stmts)) : null;
  const parserFor = (scope: ReadonlyMap<string, ConstValue>): ProgramParser =>
    new ProgramParser(source, table, scope, imports, jitFuncs, lazy, opts.blocks);
  const parser = parserFor(constants);
  const defines = opts.defines ?? new Map<string, ConstValue>();
  const programs: Program[] = [];
  const unbound = unboundDecorators(source, table, imports);
  const problems: Diagnostic[] = [...imports.warnings, ...unbound];
  let programsSeen = 0;
  let programsWithErrors = 0;
  let l = 0;
  while (l < table.count) {
    if (parser.isProgramDecorator(l)) {
      programsSeen++;
      // PyPTO reads the class when its decorator runs: the module's constants bound by then (a
      // later `N = 8` is not seen). A program inside a builder function or test method sees
      // that function's constants.
      const current = timeline.at(l);
      const scope = enclosingConstants(source.text, table, l, current, defines) ?? (sameConstants(current, constants) ? null : current);
      const p = scope ? parserFor(scope) : parser;
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
  // Kernels nested in a function or class: with the module's kernels when the enclosing block
  // binds none of the constants they use differently, else one program per enclosing block,
  // with that block's constants.
  const byParent = new Map<number, Program>();
  let moduleJit = jit;
  // The module's kernels come before the programs of enclosing blocks (as fmt prints them).
  const nestedStart = programs.length;
  for (const g of nested) {
    const scope = enclosingConstants(source.text, table, g, constants, defines);
    const p = scope ? parserFor(scope) : parser;
    const r = p.parseNestedJitKernel(g);
    if (p !== parser) for (const d of p.problems) parser.problems.push(d);
    if (!r.kernel) continue;
    const kernelText = text.slice(r.kernel.start, r.kernel.end);
    const own = scope
      ? [...scope].filter(([k, v]) => {
          const g0 = constants.get(k);
          return (g0 === undefined || JSON.stringify(g0) !== JSON.stringify(v)) && new RegExp(`(?<![\\w.])${k}(?!\\w)`).test(kernelText);
        })
      : [];
    if (own.length === 0 || !scope) {
      if (moduleJit) {
        moduleJit.functions.push(r.kernel);
        moduleJit.start = Math.min(moduleJit.start, r.kernel.start);
        moduleJit.end = Math.max(moduleJit.end, r.kernel.end);
      } else {
        moduleJit = { kind: 'Program', name: 'jit', jit: true, functions: [r.kernel], start: r.kernel.start, end: r.kernel.end };
        programs.splice(nestedStart, 0, moduleJit);
      }
      continue;
    }
    let parent = g - 1;
    while (parent > 0 && table.indent[parent]! >= table.indent[g]!) parent--;
    const prog = byParent.get(parent);
    if (prog) {
      prog.functions.push(r.kernel);
      prog.end = r.kernel.end;
    } else {
      const q: Program = { kind: 'Program', name: 'jit', jit: true, functions: [r.kernel], start: r.kernel.start, end: r.kernel.end };
      if (scope) q.constants = scope;
      byParent.set(parent, q);
      programs.push(q);
    }
  }
  const jitKernelsWithErrors = parser.problems.length - beforeJit;
  for (const d of parser.problems) problems.push(d);
  if (bad) {
    const first = problems.filter((d) => d.severity === 'error' && (d.location?.start ?? Infinity) <= bad.location!.end);
    return {
      module: { source, constants, programs: [], problems: [...first, ...(first.length > 0 ? [] : [bad])], spell: imports.spell },
      imported,
    };
  }
  if (programsSeen === 0 && localKernels === 0 && unbound.length === 0 && !problems.some((d) => d.severity === 'error')) {
    problems.push({
      severity: 'note',
      code: 'no-program',
      message:
        text.trim() === ''
          ? 'this file is empty: there is no @pl.program class or @pl.jit kernel to read'
          : imports.importsPypto
            ? 'no @pl.program class or @pl.jit kernel here: nothing to read'
            : 'no @pl.program class or @pl.jit kernel here (the file does not import pypto.language): nothing to read',
      location: { source, start: 0, end: 0 },
    });
  }
  // (Only where a kernel reads them: a module with no kernel gets no note about its numbers.)
  if (programs.length > 0 && (inexactConstants.length > 0 || mayHoldInexact(text, constants, programs))) {
    problems.push(...inexactNumbers(source, programs, constants, inexactConstants));
    chunkNotes = (stmts) => walkBody(stmts, inexactVisitor(source, constants, problems));
  }
  const stats = { programs: programsSeen, programsWithErrors, jitKernels: localKernels, jitKernelsWithErrors };
  // (A streaming parse's module is only extracted: no comments.)
  const headerComments = lazy ? [] : attachComments(text, table, programs);
  let parts: { parts: ModulePart[]; source: SourceText } | null = null;
  if (imported) {
    const own = new Set(programs.flatMap((p) => p.functions.map((f) => f.name)));
    let stubNames = [...imported.helpers.keys()].filter((n) => !own.has(n));
    if (opts.importBodies !== false && modules && stubNames.length > 0) {
      const reader = modules;
      const runHome = dirname(path);
      const got = foreignHelpers(imported.helpers, own, { source, spell: imports.spell }, reader, (t, p) =>
        parseWithImports(
          t,
          p,
          {
            ...(opts.defines ? { defines: opts.defines } : {}),
            ...(opts.blocks ? { blocks: opts.blocks } : {}),
            modules: reader,
            importBodies: false,
          },
          runHome,
        ),
      );
      programs.push(...got.programs);
      stubNames = got.stubs;
      problems.push(...unreadHelperCalls(source, programs, got.unread, imported.helpers), ...got.notes);
      if (got.parts && got.source) parts = { parts: got.parts, source: got.source };
    }
    const stubs = stubNames.map((name) => importedStub(name));
    if (stubs.length > 0)
      programs.push({ kind: 'Program', name: 'imported', jit: true, imported: true, functions: stubs, start: 0, end: 0 });
    if (imported.unfollowed.size > 0)
      problems.push(
        ...unfollowedCalls(
          source,
          programs.filter((p) => !p.imported),
          imported.unfollowed,
        ),
      );
  }
  const dynamics = moduleDynamics(text, table, imports, constants);
  const module: Module = {
    source: parts ? parts.source : source,
    ...(parts ? { parts: parts.parts } : {}),
    constants,
    programs,
    problems,
    spell: imports.spell,
    stats,
    ...(headerComments.length > 0 ? { headerComments } : {}),
    ...(dynamics.size > 0 ? { dynamics } : {}),
    ...(lazy ? { pending: lazy } : {}),
  };
  return { module, imported };
}

/** `reader` reading each path once (later reads of a path give the first read's result). */
function onceReader(reader: ModuleReader): ModuleReader {
  const read = new Map<string, ReturnType<ModuleReader['read']>>();
  return {
    roots: reader.roots,
    read: (p) => {
      if (!read.has(p)) read.set(p, reader.read(p));
      return read.get(p)!;
    },
  };
}

/** The name a `def` line defines (a Python name, PEP 3131: NFKC-normalised when read). */
const DEF_NAME = /^def\s+([\p{XID_Start}_][\p{XID_Continue}]*)/u;

/**
 * The first decorator lines of the `@pl.jit...`, `@pl.function` and `@pl.inline` functions nested
 * in a function or class (a builder, a test method; not in a `@pl.program` class); their names
 * are added to `jitFuncs` (calls to them resolve).
 */
function nestedJitKernels(text: string, table: LineTable, probe: ProgramParser, jitFuncs: Set<string>): number[] {
  const out: number[] = [];
  const isDecorator = (l: number): boolean => text.charCodeAt(table.start[l]!) === 64;
  for (let l = 0; l < table.count; l++) {
    const w = table.indent[l]!;
    if (!isDecorator(l)) continue;
    // A decorator group: its lines, then the decorated line and its block.
    let h = l;
    let jit = false;
    while (h < table.count && table.indent[h] === w && isDecorator(h)) {
      if (w > 0 && probe.isJitDecorator(h)) jit = true;
      h++;
    }
    if (probe.isProgramDecorator(l) || jit) {
      let e = h + 1;
      while (e < table.count && table.indent[e]! > w) e++;
      if (jit) {
        const m = h < table.count ? DEF_NAME.exec(text.slice(table.start[h]!, table.end[h]!)) : null;
        if (m) jitFuncs.add(m[1]!.normalize('NFKC'));
        out.push(l);
      }
      l = e - 1;
    } else l = h - 1;
  }
  return out;
}

/**
 * Whether `text` may hold a program or kernel: a decorator line of PyPTO's (`@pl.program`,
 * `@pl.jit...`, `@pl.function`, `@pl.inline`, through the module's imports). False decides,
 * before any rule is loaded, that there is nothing to judge (parseModuleIsolated then reads
 * nothing but its notes and errors).
 */
export function mayHoldKernel(text: string): boolean {
  if (!text.includes('@') || text.includes('\u0000')) return false;
  // (A decorator spelled with one of PyPTO's decorator names: true without scanning the text — a
  // large kernel file is not scanned twice. True only says "read it": the parse decides.)
  if (/@[ \t(]*(?:[\w. \t]{0,200}\.[ \t]*)?(?:program|jit|function|inline)\b/.test(text)) return true;
  const table = scanLines(text);
  const source = new SourceText('', text);
  const probe = new ProgramParser(source, table, new Map(), readImports(source, table));
  for (let l = 0; l < table.count; l++) {
    if (text.charCodeAt(table.start[l]!) === 64 && probe.decoratorRole(l) !== null) return true;
  }
  return false;
}

/** The body-less Inline function standing for helper `name` imported from another module. */
function importedStub(name: string): FunctionDef {
  return {
    kind: 'Function',
    name,
    funcKind: 'Inline',
    decoratorKwargs: [],
    bareDecorator: false,
    params: [],
    returns: null,
    docstring: null,
    attrs: [],
    body: [],
    noSelf: true,
    start: 0,
    end: 0,
  };
}

/**
 * A note at the import of each helper whose file ptolog found but whose definition there does not
 * read (an error in that file), where a kernel calls it: its body is not judged with the caller.
 */
function unreadHelperCalls(
  source: SourceText,
  programs: readonly Program[],
  unread: ReadonlyMap<string, string>,
  helpers: ImportedHelpers['helpers'],
): Diagnostic[] {
  const out = new Map<string, Diagnostic>();
  if (unread.size === 0) return [];
  const visitor: FunctionVisitor = {
    expr: (e) => {
      if (e.kind !== 'Call' || e.callee.kind !== 'self' || out.has(e.callee.name)) return;
      const path = unread.get(e.callee.name);
      const at = helpers.get(e.callee.name)?.at;
      if (path === undefined || !at) return;
      out.set(e.callee.name, {
        severity: 'note',
        code: 'unresolved-import',
        message: `a kernel calls '${e.callee.name}', an inline helper of ${path} whose definition ptolog cannot read (that file has errors: audit it): the call is inlined, but the helper's body is not judged here`,
        location: { source, start: at.start, end: at.end },
      });
    },
  };
  for (const p of programs) if (!p.imported) walkProgram(p, visitor);
  return [...out.values()];
}

/** A note at each import not followed whose name a kernel (or an inline helper) calls (once per import and name). */
function unfollowedCalls(source: SourceText, programs: readonly Program[], unfollowed: ImportedHelpers['unfollowed']): Diagnostic[] {
  const out = new Map<string, Diagnostic>();
  for (const p of programs)
    for (const f of p.functions)
      walkFunction(f, {
        expr: (e) => {
          if (e.kind !== 'Call' || e.callee.kind !== 'other') return;
          const d = dotted(e.callee.expr);
          if (d === null) return;
          const root = d.split('.')[0]!;
          const u = unfollowed.get(root);
          if (u && !out.has(root)) out.set(root, unfollowedNote(source, u, d, f.funcKind === 'Inline' ? f.name : undefined));
        },
      });
  return [...out.values()];
}

/** Whether two constant maps bind the same names to the same values. */
function sameConstants(a: ReadonlyMap<string, ConstValue>, b: ReadonlyMap<string, ConstValue>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined || JSON.stringify(v) !== JSON.stringify(w)) return false;
  }
  return true;
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
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : e instanceof Error
              ? e.message
              : String(e);
    throw new DiagnosticError([{ severity: 'error', code: 'unreadable-file', message: `cannot read ${path}: ${why}`, path }]);
  }
  return text;
}

/**
 * Whether an integer of the programs can be beyond ±(2⁵³ − 1): a literal of at least 16
 * characters (2⁵³ is 16 decimal digits, `0x` and 14 hex digits, ...), a constant's value, or
 * constant arithmetic — which passes 2⁵³ only through a product or a power (`*` in the text) or
 * a sum with a large operand (a literal of 12 or more characters: below that, a sum would need
 * some 90,000 terms). When none is there, the IR is not walked (a walk of every node of a large
 * kernel).
 */
function mayHoldInexact(text: string, constants: ReadonlyMap<string, ConstValue>, programs: readonly Program[]): boolean {
  if (text.includes('*') || /[0-9][0-9a-zA-Z_]{11}/.test(text)) return true;
  const unsafe = (v: ConstValue): boolean => (typeof v === 'number' ? !Number.isSafeInteger(v) : v.some(unsafe));
  if ([...constants.values()].some(unsafe)) return true;
  return programs.some((p) => p.constants !== undefined && [...p.constants.values()].some(unsafe));
}

/**
 * A note at each integer literal beyond ±(2⁵³ − 1) in the programs, and at each constant
 * arithmetic whose value is (`10**19`, `N * N`): the frontend holds numbers as JavaScript
 * doubles, so such a value is not exact and is read as an unknown value (a trip count of
 * `pl.range(10**19)` is then unknown) — said, not left in silence.
 */
function inexactNumbers(
  source: SourceText,
  programs: readonly Program[],
  constants: ReadonlyMap<string, ConstValue>,
  inexactConstants: readonly { start: number; end: number }[],
): Diagnostic[] {
  const out: Diagnostic[] = inexactConstants.map((at) => ({
    severity: 'note',
    code: 'inexact-number',
    message:
      'this module constant is beyond ±(2^53 - 1), where ptolog reads numbers in the kernel exactly: the constant is read as unknown (a trip count or size it sets is not decided)',
    location: { source, start: at.start, end: at.end },
  }));
  const visitor = inexactVisitor(source, constants, out);
  for (const p of programs) walkProgram(p, visitor);
  return out;
}

/** A visitor adding to `out` a note at each expression beyond ±(2⁵³ − 1) (see inexactNumbers). */
function inexactVisitor(source: SourceText, constants: ReadonlyMap<string, ConstValue>, out: Diagnostic[]): FunctionVisitor {
  return {
    expr: (e) => {
      const literal = e.kind === 'Int' && !Number.isSafeInteger(e.value);
      if (!literal && !beyondExactRange(e, constants)) return;
      out.push({
        severity: 'note',
        code: 'inexact-number',
        message: `this ${literal ? 'integer' : 'constant expression'} is beyond ±(2^53 - 1), where ptolog reads numbers in the kernel exactly: it is read as an unknown value (a trip count or size it sets is not decided)`,
        location: { source, start: e.start, end: e.end },
      });
    },
  };
}
