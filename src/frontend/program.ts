/**
 * Parses the `@pl.program` classes and JIT kernels of a scanned module into IR. The class and
 * function structure is taken from the logical lines' indentation here; the parser only ever
 * reads bounded pieces of text: a program header, a function header, and function bodies
 * (block-parser.ts, in chunks of whole top-level statements).
 */

import type { FunctionDef, Program, Stmt } from '../ir/nodes.js';
import { shiftFunction } from '../ir/shift.js';
import { DiagnosticError, errorAt, failAt } from '../report/diagnostic.js';
import { BlockParser } from './block-parser.js';
import { type DecoratorDesc, type DefHeadDesc, isHostSubWorker, makeFunction } from './build.js';
import { type DecoratorRole, decoratorName, decoratorRole } from './decorators.js';
import { lineEndAt, lineStartAt } from './function-memo.js';
import { cleanLine } from './layout.js';
import { FLAG_DIRTY, FLAG_ERROR, lineStartsWithWord } from './scan.js';

export { type BlockOptions, CHUNK_CHARS } from './block-parser.js';

/** Parses the text of one `@pl.program` class into a Program, header by header and body chunk by chunk. */
export class ProgramParser extends BlockParser {
  /** What besides its text decides how a function reads here (the memo's key), once computed. */
  private memoContext: string | undefined;

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

  /** True when logical line `l` is exactly `...`. */
  private isEllipsis(l: number): boolean {
    return this.source.text.slice(this.table.start[l]!, this.table.end[l]!) === '...';
  }

  /** A body (lines [a, b)) that is `...` after an optional docstring and `pl.func_attr(...)` lines. */
  private isEllipsisBody(a: number, b: number): boolean {
    let l = a;
    if (l < b && this.isDocstring(l) && this.table.end[l]! - this.table.start[l]! > 0) l++;
    while (l < b && /^\w+\s*\.\s*func_attr\s*\(/.test(this.source.text.slice(this.table.start[l]!, this.table.end[l]!))) l++;
    return l === b - 1 && this.isEllipsis(l);
  }

  /**
   * Function group: decorator lines [g, h), `def` line h, body lines (h, e). `jit`: a module-level
   * JIT kernel. With a memo (function-memo.ts), a function of the same text in the same context
   * as one read before is that function moved here.
   */
  private parseFunction(g: number, h: number, e: number, base: number, jit = false): FunctionDef {
    const memo = this.memo;
    if (!memo) return this.readFunction(g, h, e, base, jit);
    const t = this.table;
    const text = this.source.text;
    const from = lineStartAt(text, t.start[g]!);
    this.memoContext ??= JSON.stringify([
      [...this.constants],
      [...this.names],
      [...this.jitFuncs].sort(),
      this.chunkChars,
      this.groupCache,
    ]);
    const key = `${jit ? 1 : 0}${this.memoContext}\u0000${text.slice(from, lineEndAt(text, t.end[e - 1]!))}`;
    const kept = memo.previous.get(key) ?? memo.next.get(key);
    if (kept) {
      memo.next.set(key, kept);
      return shiftFunction(kept, from);
    }
    const before = this.problems.length;
    const f = this.readFunction(g, h, e, base, jit);
    if (this.problems.length === before) memo.next.set(key, shiftFunction(f, -from));
    return f;
  }

  /** parseFunction without the memo. */
  private readFunction(g: number, h: number, e: number, base: number, jit: boolean): FunctionDef {
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
}
