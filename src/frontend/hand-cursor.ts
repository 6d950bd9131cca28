/**
 * The token cursor under the DSL parser (hand-expr.ts, hand-stmt.ts, hand-headers.ts): token
 * tests, spans mapped back to the original text, and the record of a syntax error. Like a
 * PEG parser's "rightmost failure", the error is the token furthest into the text at which
 * something was expected, with everything expected there (a set of `X_*` bits, described by
 * errors.ts); the parser is predictive, so that token is where it stopped.
 */

import type { InternPool } from '../ir/compact.js';
import type { Span } from '../ir/nodes.js';
import type { BuildCtx, Reporter } from './build.js';
import { KEYWORDS, T_KWNAME, T_NAME, T_OP, type Tokens } from './hand-tokens.js';
import type { OffsetMap } from './layout.js';

/** What the parser needs of the chunk being parsed. */
export interface HandState {
  map: OffsetMap;
  report: Reporter;
  constants: BuildCtx['constants'];
  /** The module's PyPTO imports: local name → canonical (`pyl` → `pl`, `Tensor` → `pl.Tensor`). */
  names?: ReadonlyMap<string, string> | undefined;
  /** Names of the module's JIT kernels: a call of one is a call of a program function. */
  jitFuncs?: ReadonlySet<string> | undefined;
  /** A lone `...` is allowed (the whole body of an external kernel / abstract SubWorker). */
  ellipsisOk?: boolean | undefined;
  /** Shared strings and op callees of the parse (see ir/compact.ts). */
  pool?: InternPool | undefined;
  /** Token arrays refilled for each chunk of the parse (see `tokenize`). */
  tokens?: Tokens | undefined;
}

// What can be expected at a token (bits of a mask; errors.ts turns a mask into a sentence).
export const X_STMT = 1 << 0;
export const X_EXPR = 1 << 1;
export const X_NAME = 1 << 2;
export const X_COLON_IF = 1 << 3;
export const X_COLON_ELIF = 1 << 4;
export const X_COLON_ELSE = 1 << 5;
export const X_COLON_WHILE = 1 << 6;
export const X_COLON_FOR = 1 << 7;
export const X_COLON_WITH = 1 << 8;
export const X_COLON_DEF = 1 << 9;
export const X_COLON_CLASS = 1 << 10;
export const X_BLOCK = 1 << 11;
export const X_RPAREN = 1 << 12;
export const X_RBRACKET = 1 << 13;
export const X_RBRACE = 1 << 14;
export const X_COMMA = 1 << 15;
export const X_COLON = 1 << 16;
export const X_EQ = 1 << 17;
export const X_IN = 1 << 18;
export const X_ELSE = 1 << 19;
export const X_LPAREN = 1 << 20;
export const X_DEF = 1 << 21;
export const X_CLASS = 1 << 22;
export const X_EOL = 1 << 23;
export const X_DEDENT = 1 << 24;
export const X_END = 1 << 25;
export const X_FOR = 1 << 26;
export const X_ARROW = 1 << 27;
export const X_AS = 1 << 28;

/** A syntax error: the chunk offset it is at and what was expected there (X_* bits). */
export class SyntaxFault {
  constructor(
    readonly pos: number,
    readonly expected: number,
  ) {}
}

/** Thrown inside the parser at a syntax error (the cursor's `far*` fields say where and what). */
export const SYNTAX: unique symbol = Symbol('syntax');

/** Tokens, position, spans and the error record shared by the parser's layers. */
export class Cursor {
  protected p = 0;
  protected readonly bctx: BuildCtx;
  /** The furthest token at which something was expected, and what (X_* bits). */
  protected farP = -1;
  protected farMask = 0;

  constructor(
    /** The pre-tokenized text the tokens were read from. */
    protected readonly source: string,
    protected readonly t: Tokens,
    protected readonly st: HandState,
  ) {
    this.bctx = { report: st.report, constants: st.constants, jitFuncs: st.jitFuncs, pool: st.pool };
  }

  /** Records that `mask` was expected at the cursor (an alternative that was not there). */
  protected note(mask: number): void {
    const p = this.p;
    if (p > this.farP) {
      this.farP = p;
      this.farMask = mask;
    } else if (p === this.farP) this.farMask |= mask;
  }

  /** A syntax error at the cursor: `mask` was expected. */
  protected fail(mask: number): never {
    this.note(mask);
    throw SYNTAX;
  }

  /** The error recorded so far (after SYNTAX was thrown), and a fresh record. */
  protected takeFault(): SyntaxFault {
    const f = new SyntaxFault(this.t.start[this.farP < 0 ? this.p : this.farP]!, this.farMask);
    this.farP = -1;
    this.farMask = 0;
    return f;
  }

  /**
   * `mask` when a space comes right before the cursor's token, else 0. (A list's `,` and a
   * slice's `:` are named as expected after an item only when a space separates the item from
   * the unexpected token: right after the item they read as a typo in it.)
   */
  protected ifSpaced(mask: number): number {
    const c = this.source.charCodeAt(this.t.start[this.p]! - 1);
    return c === 32 || c === 9 ? mask : 0;
  }

  /** Span in the original text of chunk offsets [a, b). */
  protected span(a: number, b: number): Span {
    return { start: this.st.map.start(a), end: this.st.map.end(b) };
  }

  /** The original-text offset a node starting at chunk offset `a` starts at. */
  protected os(a: number): number {
    return this.st.map.start(a);
  }

  /** The original-text offset a node ending at chunk offset `b` ends at. */
  protected oe(b: number): number {
    return this.st.map.end(b);
  }

  protected isOp(s: string, at = this.p): boolean {
    return this.t.kind[at] === T_OP && this.t.text[at] === s;
  }

  protected isWord(s: string, at = this.p): boolean {
    return this.t.kind[at] === T_NAME && this.t.text[at] === s;
  }

  /** Operator `s` at the cursor (consumed: its end offset), else a syntax error expecting `mask`. */
  protected expectOp(s: string, mask: number): number {
    if (!this.isOp(s)) this.fail(mask);
    return this.t.end[this.p++]!;
  }

  /** A name that is not a keyword: its text (the cursor moves past it). */
  protected ident(): string {
    if (this.t.kind[this.p] === T_KWNAME) return this.t.text[this.p++]!;
    if (this.t.kind[this.p] !== T_NAME) this.fail(X_NAME);
    const w = this.t.text[this.p]!;
    if (KEYWORDS.has(w)) this.fail(X_NAME);
    this.p++;
    return w;
  }

  /** The pre-tokenized text between chunk offsets [a, b). */
  protected chunkText(a: number, b: number): string {
    return this.source.slice(a, b);
  }
}
