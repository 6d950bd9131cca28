/**
 * Reads the blocks of statements of a function into IR, for program.ts: a block's top-level
 * statement groups are given to the DSL parser (dsl-parser.ts) in chunks of about CHUNK_CHARS
 * characters; a compound statement too big for one chunk is split into its clause headers and
 * bodies, recursively; in a streaming parse a large block is read lazily (lazy-blocks.ts).
 *
 * Unrolled kernels repeat statements: a top-level statement group whose exact text was parsed
 * before in the same module is not parsed again, its IR is cloned with the spans moved.
 */

import { exact, InternPool } from '../ir/compact.js';
import type { ConstValue, Span, Stmt } from '../ir/nodes.js';
import { shiftStmts } from '../ir/shift.js';
import { type Diagnostic, DiagnosticError, failAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { type BuildCtx, type Clause, type Head, makeFor, makeIf, makeWhile, makeWith, type Reporter } from './build.js';
import { ParseFailure, parseRule, type Rule } from './dsl-parser.js';
import { syntaxDiagnostic } from './errors.js';
import type { FunctionMemo } from './function-memo.js';
import { SyntaxFault } from './hand-cursor.js';
import { tokenBuffer } from './hand-tokens.js';
import type { Imports } from './imports.js';
import { emitRanges } from './layout.js';
import { checkedChunk, type LazyBlocks, StreamAbandoned } from './lazy-blocks.js';
import { type LineTable, lineStartsWithWord } from './scan.js';

/** Default upper bound (characters) of the text given to one parse, where it can be split. */
export const CHUNK_CHARS = 4_000;

/** How block bodies are parsed: for tests and benchmarks (the defaults are what every run uses). */
export interface BlockOptions {
  /** Upper bound (characters) of the text given to one parse, where it can be split (default CHUNK_CHARS). */
  chunkChars?: number;
  /** Reuse the IR of a repeated statement group (default true); false parses every statement. */
  groupCache?: boolean;
  /** The functions an earlier parse of the document read, reused where their text is the same (function-memo.ts). */
  functions?: FunctionMemo;
}

/**
 * Statement groups (a top-level statement of a block with its nested lines) of at most this
 * many characters are remembered by their exact text: an identical group later in the same
 * module (unrolled code repeats lines) reuses the IR, cloned with its spans moved.
 */
const CACHE_GROUP_CHARS = 2_000;
/** Entries kept before the group cache is cleared (bounds its memory). */
const CACHE_ENTRIES = 4_096;

const COMPOUND_WORDS = ['if', 'for', 'while', 'with'];
const CLAUSE_WORDS = ['elif', 'else', 'except', 'finally'];

/** The block reader under ProgramParser: the parse state, a piece parsed as a start rule, blocks. */
export class BlockParser {
  readonly report: Reporter;
  protected readonly bctx: BuildCtx;
  /**
   * Statement group text -> its statements with spans relative to the group's start; null for
   * a text seen once (a group is copied into the cache only when its text comes again, so
   * unique text costs no copies).
   */
  protected readonly cache = new Map<string, Stmt[] | null>();
  /** Errors of functions left out of their program (each program and function is read on its own). */
  readonly problems: Diagnostic[] = [];
  protected readonly names: ReadonlyMap<string, string>;
  /** Set while a lone `...` body is being matched. */
  protected ellipsisOk = false;
  /**
   * Whether a large block may be read lazily here: not in a function whose text may hold a list
   * comprehension (its check walks the whole body).
   */
  protected lazyOk = true;
  /** Shared strings and op callees of everything this parser reads (bounded when it lives through extraction: streaming). */
  protected readonly pool: InternPool;
  /** Token arrays of the DSL parser, refilled chunk after chunk (no arrays per chunk). */
  protected readonly tokens = tokenBuffer();
  /** Upper bound (characters) of one parse's text (BlockOptions.chunkChars). */
  protected readonly chunkChars: number;
  /** Whether repeated statement groups reuse their IR (BlockOptions.groupCache). */
  protected readonly groupCache: boolean;
  /** The functions of an earlier parse (BlockOptions.functions), null in a streaming parse. */
  protected readonly memo: FunctionMemo | null;

  constructor(
    protected readonly source: SourceText,
    protected readonly table: LineTable,
    protected readonly constants: ReadonlyMap<string, ConstValue>,
    imports: Imports | null = null,
    protected readonly jitFuncs: ReadonlySet<string> = new Set(),
    /** A streaming parse's placeholders: large blocks are read as extraction reaches them (see lazy-blocks.ts). */
    protected readonly lazy: LazyBlocks | null = null,
    blocks: BlockOptions = {},
  ) {
    this.chunkChars = blocks.chunkChars ?? CHUNK_CHARS;
    this.groupCache = blocks.groupCache ?? true;
    this.memo = lazy ? null : (blocks.functions ?? null);
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

  protected lineSpan(l: number): Span {
    return { start: this.table.start[l]!, end: this.table.end[l]! };
  }

  protected match<T>(from: number, to: number, base: number, rule: Rule): T {
    return this.matchRanges<T>([from, to], base, rule);
  }

  /** Parses logical lines `ranges` (pairs [from, to)) as `rule`; errors are thrown as one DiagnosticError. */
  protected matchRanges<T>(ranges: number[], base: number, rule: Rule): T {
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

  protected inconsistent(l: number): never {
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

  protected withEllipsis<T>(ok: boolean, read: () => T): T {
    const prev = this.ellipsisOk;
    this.ellipsisOk = ok;
    try {
      return read();
    } finally {
      this.ellipsisOk = prev;
    }
  }

  protected startsWithAny(l: number, words: readonly string[]): boolean {
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
   * statement groups are parsed in chunks of about `chunkChars`; a group seen before (same
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
  protected groupStarts(a: number, b: number): Int32Array {
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
  protected lazyBlock(lazy: LazyBlocks, starts: Int32Array): Stmt[] {
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
  protected chunkOf(a: number, b: number): Stmt[] {
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
  protected parseWholeBlock(a: number, b: number): Stmt[] {
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
    // After a compound header alone on its line (a body missing, or on the header's line): the
    // next group is parsed in the same chunk, never taken from the cache, so that a missing body
    // is reported at the statement that follows, as Python and an uncached parse report it.
    let afterHeader = false;
    while (g < b) {
      if (t.indent[g]! < base) this.inconsistent(g);
      let e = g + 1;
      while (e < b && (t.indent[e]! > base || (t.indent[e] === base && this.startsWithAny(e, CLAUSE_WORDS)))) e++;
      const start = t.start[g]!;
      const chars = t.end[e - 1]! - start;
      if (chars > this.chunkChars && e - g > 1 && this.startsWithAny(g, COMPOUND_WORDS)) {
        flush();
        try {
          out.push(this.splitCompound(g, e, base));
        } catch (err) {
          if (!(err instanceof DiagnosticError)) throw err;
          errors.push(...err.diagnostics);
        }
        afterHeader = false;
      } else {
        const key = this.groupCache && !afterHeader && chars <= CACHE_GROUP_CHARS ? text.slice(start, t.end[e - 1]!) : null;
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
        afterHeader = e === g + 1 && this.startsWithAny(g, COMPOUND_WORDS);
        if (!afterHeader && (missChars > this.chunkChars || pending.length >= 4096)) flush();
      }
      g = e;
    }
    flush();
    if (errors.length > 0) throw new DiagnosticError(errors);
    return exact(out);
  }

  /** A compound statement too big for one chunk: each clause header parsed alone, each body in chunks. */
  protected splitCompound(g: number, e: number, base: number): Stmt {
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
