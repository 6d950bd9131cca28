/**
 * Parses the `@pl.program` classes of a scanned module into IR.
 *
 * The class and function structure is taken from the logical lines' indentation here; the
 * grammar only ever parses bounded pieces of text: a program header, a function header, and
 * function bodies in chunks of whole top-level statements (about CHUNK_CHARS each). A compound
 * statement too big for one chunk is split into its clause headers and bodies, recursively.
 * Each Ohm match result is dropped as soon as its IR is built, so Ohm's memo table stays
 * bounded by the chunk size and time grows linearly with the program.
 *
 * Unrolled kernels repeat statements: a top-level statement group whose exact text was parsed
 * before in the same module is not parsed again, its IR is cloned with the spans moved.
 */

import { exact, InternPool } from '../ir/compact.js';
import type { ConstValue, FunctionDef, Program, Span, Stmt } from '../ir/nodes.js';
import { shiftStmts } from '../ir/shift.js';
import { type Diagnostic, DiagnosticError, errorAt, failAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import {
  type BuildCtx,
  type Clause,
  type DecoratorDesc,
  type DefHeadDesc,
  type Head,
  isHostSubWorker,
  makeFor,
  makeFunction,
  makeIf,
  makeWhile,
  makeWith,
  type Reporter,
} from './build.js';
import { type DecoratorRole, decoratorName, decoratorRole } from './decorators.js';
import { ParseFailure, parseRule, type Rule } from './dsl-parser.js';
import { syntaxDiagnostic } from './errors.js';
import { SyntaxFault } from './hand-cursor.js';
import { tokenBuffer } from './hand-tokens.js';
import type { Imports } from './imports.js';
import { cleanLine, emitRanges } from './layout.js';
import { checkedChunk, type LazyBlocks, StreamAbandoned } from './lazy-blocks.js';
import { FLAG_DIRTY, FLAG_ERROR, type LineTable, lineStartsWithWord } from './scan.js';

/** Upper bound (characters) of the text given to one grammar match, where it can be split. */
export let CHUNK_CHARS = 4_000;

/**
 * Statement groups (a top-level statement of a block with its nested lines) of at most this
 * many characters are remembered by their exact text: an identical group later in the same
 * module (unrolled code repeats lines) reuses the IR, cloned with its spans moved.
 */
const CACHE_GROUP_CHARS = 2_000;
/** Entries kept before the group cache is cleared (bounds its memory). */
const CACHE_ENTRIES = 4_096;

/** For tests and benchmarks: change the chunk size. */
export function setChunkChars(n: number): void {
  CHUNK_CHARS = n;
}

let cacheEnabled = true;

/** For tests and benchmarks: turn the statement-group cache off (or back on). */
export function setGroupCache(enabled: boolean): void {
  cacheEnabled = enabled;
}

const COMPOUND_WORDS = ['if', 'for', 'while', 'with'];
const CLAUSE_WORDS = ['elif', 'else', 'except', 'finally'];

/** Parses the text of one `@pl.program` class into a Program, header by header and body chunk by chunk. */
export class ProgramParser {
  readonly report: Reporter;
  private readonly bctx: BuildCtx;
  /**
   * Statement group text -> its statements with spans relative to the group's start; null for
   * a text seen once (a group is copied into the cache only when its text comes again, so
   * unique text costs no copies).
   */
  private readonly cache = new Map<string, Stmt[] | null>();
  /** Errors of functions left out of their program (each program and function is read on its own). */
  readonly problems: Diagnostic[] = [];
  private readonly names: ReadonlyMap<string, string>;
  /** Set while a lone `...` body is being matched. */
  private ellipsisOk = false;
  /**
   * Whether a large block may be read lazily here: not in a function whose text may hold a list
   * comprehension (its check walks the whole body).
   */
  private lazyOk = true;
  /** Shared strings and op callees of everything this parser reads (bounded when it lives through extraction: streaming). */
  private readonly pool: InternPool;
  /** Token arrays of the hand-written parser, refilled chunk after chunk (no arrays per chunk). */
  private readonly tokens = tokenBuffer();

  constructor(
    private readonly source: SourceText,
    private readonly table: LineTable,
    private readonly constants: ReadonlyMap<string, ConstValue>,
    imports: Imports | null = null,
    private readonly jitFuncs: ReadonlySet<string> = new Set(),
    /** A streaming parse's placeholders: large blocks are read as extraction reaches them (see lazy-blocks.ts). */
    private readonly lazy: LazyBlocks | null = null,
  ) {
    this.pool = new InternPool(lazy ? 65_536 : Number.POSITIVE_INFINITY);
    this.report = {
      unsupported: (span: Span, message: string): never => failAt(source, span.start, span.end, 'unsupported-construct', message),
      syntax: (span: Span, message: string): never => failAt(source, span.start, span.end, 'syntax-error', message),
    };
    this.bctx = { report: this.report, constants, jitFuncs, pool: this.pool };
    this.names =
      imports?.names ??
      new Map([
        ['pl', 'pl'],
        ['pld', 'pld'],
      ]);
  }

  /** True when logical line `l` is a `@pl.program` decorator (through the module's imports). */
  isProgramDecorator(l: number): boolean {
    return this.decoratorRole(l) === 'program';
  }

  /** True when logical line `l` is a `@pl.jit...`, `@pl.function` or `@pl.inline` decorator (through the module's imports). */
  isJitDecorator(l: number): boolean {
    const r = this.decoratorRole(l);
    return r === 'jit' || r === 'function';
  }

  /** True when logical line `l` is a `@pl.jit...` decorator (not `@pl.function`). */
  isJitOnlyDecorator(l: number): boolean {
    return this.decoratorRole(l) === 'jit';
  }

  /** What the decorator on logical line `l` declares (decorators.ts), null when it is no PyPTO decorator or no decorator. */
  decoratorRole(l: number): DecoratorRole {
    const text = this.source.text;
    const s = this.table.start[l]!;
    if (text.charCodeAt(s) !== 64) return null;
    const line = cleanLine(text, s, this.table.end[l]!, (this.table.flags[l]! & FLAG_DIRTY) !== 0);
    return decoratorRole(decoratorName(line, this.names));
  }

  /**
   * A JIT kernel nested in a function or class (a test method, a builder): its first decorator
   * is logical line `g`. Returns the kernel (null when it cannot be read: recorded in
   * `problems`) and the line after it.
   */
  parseNestedJitKernel(g: number): { kernel: FunctionDef | null; next: number } {
    const t = this.table;
    const text = this.source.text;
    const base = t.indent[g]!;
    let h = g;
    while (h < t.count && t.indent[h] === base && text.charCodeAt(t.start[h]!) === 64) h++;
    let e = h + 1;
    while (e < t.count && t.indent[e]! > base) e++;
    if (h >= t.count || t.indent[h] !== base || !lineStartsWithWord(text, t, h, 'def')) {
      this.isolated(() => this.report.unsupported(this.lineSpan(h < t.count ? h : g), '@pl.jit must decorate a function (def)'));
      return { kernel: null, next: Math.max(h, g + 1) };
    }
    const kernel = this.isolated(() => {
      this.checkLines(g, e);
      return this.parseFunction(g, h, e, base, true);
    });
    return { kernel, next: e };
  }

  private lineSpan(l: number): Span {
    return { start: this.table.start[l]!, end: this.table.end[l]! };
  }

  private match<T>(from: number, to: number, base: number, rule: Rule): T {
    return this.matchRanges<T>([from, to], base, rule);
  }

  /** Parses logical lines `ranges` (pairs [from, to)) as `rule`; errors are thrown as one DiagnosticError. */
  private matchRanges<T>(ranges: number[], base: number, rule: Rule): T {
    const from = ranges[0]!;
    const chunk = emitRanges(this.source, this.table, ranges, base);
    try {
      const state = {
        report: this.report,
        constants: this.constants,
        names: this.names,
        jitFuncs: this.jitFuncs,
        ellipsisOk: this.ellipsisOk,
        pool: this.pool,
        tokens: this.tokens,
      };
      return parseRule<T>(chunk, rule, state);
    } catch (e) {
      if (e instanceof ParseFailure) {
        throw new DiagnosticError(e.faults.map((f) => (f instanceof SyntaxFault ? syntaxDiagnostic(this.source, e.chunk, f) : f)));
      }
      if (e instanceof RangeError) {
        const s = this.table.start[from]!;
        failAt(this.source, s, this.table.end[from]!, 'syntax-error', 'this statement is nested too deeply to parse');
      }
      throw e;
    }
  }

  /** As parseProgram; a program that cannot be read is recorded in `problems` (null) and the scan goes on after it. */
  parseProgramIsolated(d: number): { program: Program | null; next: number } {
    try {
      return this.parseProgram(d);
    } catch (e) {
      if (!(e instanceof DiagnosticError)) throw e;
      for (const x of e.diagnostics) this.problems.push(x);
      const t = this.table;
      const base = t.indent[d]!;
      let k = d;
      while (k < t.count && t.indent[k] === base && this.source.text.charCodeAt(t.start[k]!) === 64) k++;
      let j = k + 1;
      while (j < t.count && t.indent[j]! > base) j++;
      return { program: null, next: Math.min(Math.max(j, d + 1), t.count) };
    }
  }

  /** Parses the program whose `@pl.program` decorator is logical line `d`; returns it and the next line after it. */
  parseProgram(d: number): { program: Program; next: number } {
    const t = this.table;
    const text = this.source.text;
    const base = t.indent[d]!;
    let k = d;
    while (k < t.count && t.indent[k] === base && text.charCodeAt(t.start[k]!) === 64) k++;
    let j = k + 1;
    while (j < t.count && t.indent[j]! > base) j++;
    if (k >= t.count || t.indent[k] !== base || !lineStartsWithWord(text, t, k, 'class')) {
      // Report lexical errors first: they may be why no class was found.
      this.checkLines(d, Math.min(j, t.count));
      this.report.unsupported(this.lineSpan(d), '@pl.program must decorate a class');
    }
    this.checkLines(d, j);
    const header = this.match<{ decorators: DecoratorDesc[]; name: string }>(d, k + 1, base, 'ProgramHeader');
    if (j === k + 1) {
      const e = t.end[k]!;
      failAt(this.source, e, e, 'syntax-error', 'expected an indented block after the class header');
    }
    const bodyBase = t.indent[k + 1]!;
    const functions: FunctionDef[] = [];
    let g = k + 1;
    while (g < j) {
      if (t.indent[g]! < bodyBase) this.inconsistent(g);
      let h = g;
      while (h < j && t.indent[h] === bodyBase && text.charCodeAt(t.start[h]!) === 64) h++;
      if (h >= j || t.indent[h] !== bodyBase) {
        this.report.unsupported(this.lineSpan(g), 'a decorator must be followed by a function definition');
      }
      let e = h + 1;
      while (e < j && t.indent[e]! > bodyBase) e++;
      if (lineStartsWithWord(text, t, h, 'def')) {
        const f = this.isolated(() => this.parseFunction(g, h, e, bodyBase));
        if (f) functions.push(f);
      } else if (h === g && e === g + 1 && (this.isDocstring(g) || lineStartsWithWord(text, t, g, 'pass'))) {
        // A class docstring or `pass`: nothing to keep.
      } else {
        this.report.unsupported(this.lineSpan(h), 'only @pl.function methods can appear in a @pl.program class');
      }
      g = e;
    }
    const start = header.decorators[0]?.span.start ?? t.start[d]!;
    const end = functions.length > 0 ? functions[functions.length - 1]!.end : t.end[k]!;
    return { program: { kind: 'Program', name: header.name, functions, start, end }, next: j };
  }

  /** Runs `read`; a DiagnosticError is recorded in `problems` (the function is left out), null returned. */
  private isolated<T>(read: () => T): T | null {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof DiagnosticError)) throw e;
      for (const d of e.diagnostics) this.problems.push(d);
      return null;
    }
  }

  /**
   * The module-level kernels: every decorated `def` at indentation 0 whose decorators include
   * a `@pl.jit...` form (or a standalone `@pl.function`), read as one program (`jit`) of the module. A kernel that
   * cannot be read is recorded in `problems` and left out; the others are still read.
   */
  parseJitKernels(): Program | null {
    const t = this.table;
    const text = this.source.text;
    const functions: FunctionDef[] = [];
    let l = 0;
    while (l < t.count) {
      if (t.indent[l] !== 0 || text.charCodeAt(t.start[l]!) !== 64) {
        l++;
        continue;
      }
      let h = l;
      let isJit = false;
      while (h < t.count && t.indent[h] === 0 && text.charCodeAt(t.start[h]!) === 64) {
        if (this.isJitDecorator(h)) isJit = true;
        h++;
      }
      let e = h + 1;
      while (e < t.count && t.indent[e]! > 0) e++;
      if (isJit && h < t.count && t.indent[h] === 0 && lineStartsWithWord(text, t, h, 'def')) {
        const g = l;
        const f = this.isolated(() => {
          this.checkLines(g, e);
          return this.parseFunction(g, h, e, 0, true);
        });
        if (f) functions.push(f);
      } else if (isJit) {
        this.isolated(() =>
          this.report.unsupported(this.lineSpan(h < t.count ? h : l), '@pl.jit must decorate a module-level function (def)'),
        );
      }
      l = Math.max(e, l + 1);
    }
    if (functions.length === 0) return null;
    return {
      kind: 'Program',
      name: 'jit',
      jit: true,
      functions,
      start: functions[0]!.start,
      end: functions[functions.length - 1]!.end,
    };
  }

  private isDocstring(l: number): boolean {
    const s = this.table.start[l]!;
    return /^[rRuU]?["']/.test(this.source.text.slice(s, s + 2));
  }

  private checkLines(from: number, to: number): void {
    const t = this.table;
    for (let l = from; l < to; l++) {
      if ((t.flags[l]! & FLAG_ERROR) !== 0) {
        const e = t.errors.get(l)!;
        throw new DiagnosticError([errorAt(this.source, e.start, e.end, e.code, e.message)]);
      }
    }
  }

  private inconsistent(l: number): never {
    const s = this.table.start[l]!;
    const lineStart = this.source.lineStart(this.source.position(s).line);
    return failAt(
      this.source,
      lineStart,
      s,
      'inconsistent-dedent',
      'this line is dedented to a level that does not match any enclosing block',
    );
  }

  /** True when logical line `l` is exactly `...`. */
  private isEllipsis(l: number): boolean {
    return this.source.text.slice(this.table.start[l]!, this.table.end[l]!) === '...';
  }

  /** A body (lines [a, b)) that is `...` after an optional docstring and `pl.func_attr(...)`. */
  private isEllipsisBody(a: number, b: number): boolean {
    let l = a;
    if (l < b && this.isDocstring(l) && this.table.end[l]! - this.table.start[l]! > 0) l++;
    if (l < b && /^\w+\s*\.\s*func_attr\s*\(/.test(this.source.text.slice(this.table.start[l]!, this.table.end[l]!))) l++;
    return l === b - 1 && this.isEllipsis(l);
  }

  private withEllipsis<T>(ok: boolean, read: () => T): T {
    const prev = this.ellipsisOk;
    this.ellipsisOk = ok;
    try {
      return read();
    } finally {
      this.ellipsisOk = prev;
    }
  }

  /** Function group: decorator lines [g, h), `def` line h, body lines (h, e). `jit`: a module-level JIT kernel. */
  private parseFunction(g: number, h: number, e: number, base: number, jit = false): FunctionDef {
    const t = this.table;
    const text = this.source.text;
    const inlineEllipsis = /:\s*\.\.\.$/.test(text.slice(t.start[h]!, t.end[h]!));
    const r = this.withEllipsis(inlineEllipsis, () =>
      this.match<{ decorators: DecoratorDesc[]; head: DefHeadDesc; inline: Stmt[] | null }>(g, h + 1, base, 'FuncHeader'),
    );
    let body: Stmt[];
    let hostSource: string[] | null = null;
    const mayHoldComprehension = !this.forOnlyAsStatement(h, e);
    if (r.inline) {
      if (h + 1 < e) failAt(this.source, t.start[h + 1]!, t.start[h + 1]!, 'syntax-error', 'unexpected indent');
      body = r.inline;
    } else {
      if (h + 1 === e) {
        const end = t.end[h]!;
        failAt(this.source, end, end, 'syntax-error', 'expected an indented block after the function signature');
      }
      if (!jit && isHostSubWorker(r.decorators) && !this.isEllipsisBody(h + 1, e)) {
        // A HOST SubWorker's body is plain Python that PyPTO keeps as text: read it as opaque host code.
        body = [];
        hostSource = this.hostLines(h + 1, e);
      } else {
        const lazyOk = this.lazyOk;
        this.lazyOk = !mayHoldComprehension;
        try {
          body = this.withEllipsis(this.isEllipsisBody(h + 1, e), () => this.parseBlock(h + 1, e));
        } finally {
          this.lazyOk = lazyOk;
        }
      }
    }
    const f = makeFunction(this.bctx, r.decorators, r.head, body, jit, hostSource, mayHoldComprehension);
    if (hostSource) f.end = t.end[e - 1]!;
    return f;
  }

  /**
   * True when every `for` in the text of logical lines [a, b) starts one of them (a `for`
   * statement): then they hold no comprehension (whose `for` is inside brackets), and the body
   * need not be walked for one. A `for` in a string or comment only makes this false.
   */
  private forOnlyAsStatement(a: number, b: number): boolean {
    if (a >= b) return true;
    const t = this.table;
    const text = this.source.text;
    const to = t.end[b - 1]!;
    let occurrences = 0;
    for (let i = text.indexOf('for', t.start[a]!); i >= 0 && i + 3 <= to; i = text.indexOf('for', i + 3)) occurrences++;
    if (occurrences === 0) return true;
    let statements = 0;
    for (let l = a; l < b; l++) if (lineStartsWithWord(text, t, l, 'for')) statements++;
    return occurrences === statements;
  }

  /** The source lines of logical lines [a, b), dedented by the first line's indentation. */
  private hostLines(a: number, b: number): string[] {
    const text = this.source.text;
    const from = this.source.lineStart(this.source.position(this.table.start[a]!).line);
    const raw = text.slice(from, this.table.end[b - 1]!).split(/\r\n|\n|\r/);
    const w = this.table.indent[a]!;
    return raw.map((line) =>
      (line.slice(0, w).trim() === '' ? line.slice(Math.min(w, line.length - line.trimStart().length)) : line.trimStart()).trimEnd(),
    );
  }

  private startsWithAny(l: number, words: readonly string[]): boolean {
    // Asked of every line of a block: most lines fail at their first character.
    const text = this.source.text;
    const c = text.charCodeAt(this.table.start[l]!);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (w.charCodeAt(0) === c && lineStartsWithWord(text, this.table, l, w)) return true;
    }
    return false;
  }

  /**
   * Parses the block of logical lines [a, b) (base indentation: line a's). Its top-level
   * statement groups are parsed in chunks of about CHUNK_CHARS; a group seen before (same
   * text) is taken from the cache; a compound statement bigger than a chunk is split.
   * A chunk with an error is parsed again statement by statement (a compound one clause by
   * clause), so every statement with an error is reported, not only the first; then the block
   * throws all of them. In a streaming parse a large block is read lazily instead (lazyBlock).
   */
  parseBlock(a: number, b: number): Stmt[] {
    const lazy = this.lazy;
    if (lazy !== null && this.lazyOk && b - a >= lazy.minGroups) {
      const starts = this.groupStarts(a, b);
      if (lazy.wants(starts.length - 1, this.table.start[a]!, this.table.end[b - 1]!)) return this.lazyBlock(lazy, starts);
    }
    return this.parseWholeBlock(a, b);
  }

  /** The first logical line of each statement group of the block [a, b), then `b`. */
  private groupStarts(a: number, b: number): Int32Array {
    const t = this.table;
    const base = t.indent[a]!;
    const out = new Int32Array(b - a + 1);
    let n = 0;
    let g = a;
    while (g < b) {
      // (An error only a whole parse reports as it should.)
      if (t.indent[g]! < base) throw new StreamAbandoned('inconsistent indentation');
      let e = g + 1;
      while (e < b && (t.indent[e]! > base || (t.indent[e] === base && this.startsWithAny(e, CLAUSE_WORDS)))) e++;
      out[n++] = g;
      g = e;
    }
    out[n++] = b;
    return out.slice(0, n);
  }

  /**
   * The block whose statement groups start at `starts` (then its end line), its first and last
   * chunk of groups parsed (what a statement's builder reads of its body: the first statements,
   * the last one's end), a placeholder for each chunk in between (see lazy-blocks.ts).
   */
  private lazyBlock(lazy: LazyBlocks, starts: Int32Array): Stmt[] {
    const t = this.table;
    const n = starts.length - 1;
    const c = lazy.chunkGroups;
    const chunks = Math.ceil(n / c);
    const out = new Array<Stmt>(n);
    for (let k = 0; k < chunks; k++) {
      const g0 = k * c;
      const g1 = Math.min(n, g0 + c);
      const from = starts[g0]!;
      const to = starts[g1]!;
      const parse = (): Stmt[] => this.chunkOf(from, to);
      if (k === 0 || k === chunks - 1) {
        const got = checkedChunk(g1 - g0, parse);
        for (let j = 0; j < got.length; j++) out[g0 + j] = got[j]!;
      } else {
        out.fill(lazy.placeholder(g1 - g0, parse, t.start[from]!, t.end[to - 1]!), g0, g1);
      }
    }
    return out;
  }

  /** The statements of the groups on lines [a, b), read as they are inside a lazily read block. */
  private chunkOf(a: number, b: number): Stmt[] {
    const lazyOk = this.lazyOk;
    const ellipsisOk = this.ellipsisOk;
    this.lazyOk = true;
    this.ellipsisOk = false;
    try {
      return this.parseWholeBlock(a, b);
    } finally {
      this.lazyOk = lazyOk;
      this.ellipsisOk = ellipsisOk;
    }
  }

  /** parseBlock, every statement parsed now (nested large blocks may still be lazy). */
  private parseWholeBlock(a: number, b: number): Stmt[] {
    const t = this.table;
    const text = this.source.text;
    const base = t.indent[a]!;
    const out: Stmt[] = [];
    interface Group {
      g: number;
      e: number;
      key: string | null;
      stmts: Stmt[] | null;
      store: boolean;
    }
    let pending: Group[] = [];
    let missChars = 0;
    const errors: Diagnostic[] = [];
    const flush = (): void => {
      // Indexed loops, no callbacks: this runs per chunk, mostly before the JIT has compiled it.
      const misses: Group[] = [];
      for (let i = 0; i < pending.length; i++) if (pending[i]!.stmts === null) misses.push(pending[i]!);
      if (misses.length > 0) {
        const ranges: number[] = [];
        for (let i = 0; i < misses.length; i++) ranges.push(misses[i]!.g, misses[i]!.e);
        let stmts: Stmt[];
        try {
          stmts = this.matchRanges<Stmt[]>(ranges, base, 'Chunk');
        } catch (e) {
          if (!(e instanceof DiagnosticError)) throw e;
          // Every erroneous statement of the chunk, from the one parse (it recovers statement by statement).
          for (const d of e.diagnostics) errors.push(d);
          pending = [];
          missChars = 0;
          return;
        }
        // Give each miss the statements that start inside it (they come in source order).
        let k = 0;
        for (let i = 0; i < misses.length; i++) {
          const m = misses[i]!;
          const limit = i + 1 < misses.length ? t.start[misses[i + 1]!.g]! : Infinity;
          const mine: Stmt[] = [];
          while (k < stmts.length && stmts[k]!.start < limit) mine.push(stmts[k++]!);
          m.stmts = mine;
          if (m.key !== null && m.store) {
            if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
            this.cache.set(m.key, shiftStmts(mine, -t.start[m.g]!));
          }
        }
      }
      for (let i = 0; i < pending.length; i++) {
        const stmts = pending[i]!.stmts!;
        for (let j = 0; j < stmts.length; j++) out.push(stmts[j]!);
      }
      pending = [];
      missChars = 0;
    };
    let g = a;
    while (g < b) {
      if (t.indent[g]! < base) this.inconsistent(g);
      let e = g + 1;
      while (e < b && (t.indent[e]! > base || (t.indent[e] === base && this.startsWithAny(e, CLAUSE_WORDS)))) e++;
      const start = t.start[g]!;
      const chars = t.end[e - 1]! - start;
      if (chars > CHUNK_CHARS && e - g > 1 && this.startsWithAny(g, COMPOUND_WORDS)) {
        flush();
        try {
          out.push(this.splitCompound(g, e, base));
        } catch (err) {
          if (!(err instanceof DiagnosticError)) throw err;
          errors.push(...err.diagnostics);
        }
      } else {
        const key = cacheEnabled && chars <= CACHE_GROUP_CHARS ? text.slice(start, t.end[e - 1]!) : null;
        const hit = key !== null ? this.cache.get(key) : undefined;
        if (hit) {
          pending.push({ g, e, key, stmts: shiftStmts(hit, start), store: false });
        } else {
          // Seen once before (null): keep this one; first sighting: only remember the text.
          const store = hit === null;
          if (key !== null && !store) {
            if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
            this.cache.set(key, null);
          }
          pending.push({ g, e, key, stmts: null, store });
          missChars += chars;
        }
        if (missChars > CHUNK_CHARS || pending.length >= 4096) flush();
      }
      g = e;
    }
    flush();
    if (errors.length > 0) throw new DiagnosticError(errors);
    return exact(out);
  }

  /** A compound statement too big for one chunk: each clause header parsed alone, each body in chunks. */
  private splitCompound(g: number, e: number, base: number): Stmt {
    const t = this.table;
    const heads: number[] = [g];
    for (let l = g + 1; l < e; l++) if (t.indent[l] === base) heads.push(l);
    const clauses: Clause[] = [];
    for (let i = 0; i < heads.length; i++) {
      const c = heads[i]!;
      const next = heads[i + 1] ?? e;
      const r = this.match<{ head: Head; inline: Stmt[] | null }>(c, c + 1, base, 'ClauseHeader');
      let body: Stmt[];
      if (r.inline) {
        if (next > c + 1) failAt(this.source, t.start[c + 1]!, t.start[c + 1]!, 'syntax-error', 'unexpected indent');
        body = r.inline;
      } else {
        if (next === c + 1) {
          const end = t.end[c]!;
          failAt(this.source, end, end, 'syntax-error', 'expected an indented block');
        }
        body = this.parseBlock(c + 1, next);
      }
      clauses.push({ head: r.head, body });
    }
    const first = clauses[0]!;
    const extra = (from: number): void => {
      const c = clauses[from];
      if (c) this.report.syntax(c.head.span, `unexpected '${c.head.kind}'`);
    };
    switch (first.head.kind) {
      case 'if':
        return makeIf(this.bctx, clauses);
      case 'for': {
        const els = clauses[1] && clauses[1].head.kind === 'else' ? clauses[1] : null;
        extra(els ? 2 : 1);
        return makeFor(this.bctx, first, els);
      }
      case 'while': {
        const els = clauses[1] && clauses[1].head.kind === 'else' ? clauses[1] : null;
        extra(els ? 2 : 1);
        return makeWhile(this.bctx, first, els);
      }
      case 'with':
        extra(1);
        return makeWith(this.bctx, first);
      default:
        return this.report.syntax(first.head.span, `'${first.head.kind}' without a matching 'if'`);
    }
  }
}
