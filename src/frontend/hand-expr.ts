/**
 * Expression part of the hand-written DSL parser: recursive descent over hand-tokens.ts that
 * builds exactly the IR the Ohm semantics (semantics.ts) builds for the same text — same node
 * kinds, fields and spans (extents as the grammar's nodes have them, mapped back through the
 * chunk's OffsetMap), through the same builders (build.ts, precedence.ts, literals.ts).
 *
 * It accepts only a subset of what the grammar accepts: on anything else it throws NO_PARSE
 * and the caller lets the grammar read the piece (so every syntax error keeps its message).
 * A builder that reports a diagnostic also sends the piece back to the grammar, which then
 * reports the first error of the piece in its own order.
 */

import { empty, exact, type InternPool } from '../ir/compact.js';
import type { DictExpr, Expr, NameExpr, Span, StrExpr } from '../ir/nodes.js';
import { type ArgDesc, type BuildCtx, makeAttr, makeCall, type Reporter, resolveImported } from './build.js';
import { KEYWORDS, T_END, T_NAME, T_NEWLINE, T_NUMBER, T_OP, T_STRING, type Tokens } from './hand-tokens.js';
import type { OffsetMap } from './layout.js';
import { decodeString, isFString, parseNumber } from './literals.js';
import { type OperandTok, type OpTok, precedence } from './precedence.js';

/** Thrown when the hand-written parser does not accept a piece (the grammar reads it instead). */
export const NO_PARSE: unique symbol = Symbol('no-parse');

/** What the hand-written parser needs of the chunk being parsed (as the semantics' SemState). */
export interface HandState {
  map: OffsetMap;
  report: Reporter;
  constants: BuildCtx['constants'];
  names?: ReadonlyMap<string, string> | undefined;
  jitFuncs?: ReadonlySet<string> | undefined;
  ellipsisOk?: boolean | undefined;
  /** Shared strings and op callees of the parse (see ir/compact.ts). */
  pool?: InternPool | undefined;
  /** Token arrays refilled for each chunk of the parse (see `tokenize`). */
  tokens?: Tokens | undefined;
}

export { KEYWORDS };

const BIN_SYMS = new Set(['**', '//', '<<', '>>', '<=', '>=', '==', '!=', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', '@']);

/** The initial value of the operand field (never read before an operand is parsed). */
const NO_EXPR: Expr = { kind: 'None', start: 0, end: 0 };

/** An expression and the extent (chunk offsets) of the text it was read from, parentheses included. */
export interface Ext {
  e: Expr;
  start: number;
  end: number;
}

/** Recursive-descent reader of DSL expressions over a token array (one chunk). */
export class ExprParser {
  protected p = 0;
  protected readonly bctx: BuildCtx;

  constructor(
    /** The pre-tokenized text the tokens were read from. */
    protected readonly source: string,
    protected readonly t: Tokens,
    protected readonly st: HandState,
  ) {
    this.bctx = { report: st.report, constants: st.constants, jitFuncs: st.jitFuncs, pool: st.pool };
  }

  protected fail(): never {
    throw NO_PARSE;
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

  protected expectOp(s: string): number {
    if (!this.isOp(s)) this.fail();
    return this.t.end[this.p++]!;
  }

  /** True when the token at `at` can start an expression. */
  protected startsExpr(at = this.p): boolean {
    const k = this.t.kind[at];
    if (k === T_NUMBER || k === T_STRING) return true;
    if (k === T_NAME) {
      const w = this.t.text[at]!;
      return !KEYWORDS.has(w) || w === 'True' || w === 'False' || w === 'None' || w === 'not';
    }
    if (k === T_OP) {
      const o = this.t.text[at]!;
      return o === '(' || o === '[' || o === '{' || o === '-' || o === '+' || o === '~' || o === '...';
    }
    return false;
  }

  /** A name that is not a keyword: its text (the cursor moves past it). */
  protected ident(): string {
    if (this.t.kind[this.p] !== T_NAME) this.fail();
    const w = this.t.text[this.p]!;
    if (KEYWORDS.has(w)) this.fail();
    this.p++;
    return w;
  }

  /** Grammar `ExprList`: one expression, or a Tuple of several (or of one with a trailing comma). */
  exprList(): Ext {
    const first = this.expr();
    if (!this.isOp(',')) return first;
    const items: Expr[] = [first.e];
    let end = first.end;
    while (this.isOp(',')) {
      end = this.t.end[this.p]!;
      this.p++;
      if (!this.startsExpr()) break;
      const x = this.expr();
      items.push(x.e);
      end = x.end;
    }
    return { e: { kind: 'Tuple', elts: exact(items), start: this.os(first.start), end: this.oe(end) }, start: first.start, end };
  }

  /** Grammar `Expr`: a binary chain; a conditional or `:=` tail is left to the grammar. */
  expr(): Ext {
    // A lone name or number (most arguments and list items): read without the operand
    // machinery, to the same node (fewer calls and no records before the JIT has compiled them).
    const t = this.t;
    const p = this.p;
    const k = t.kind[p];
    if ((k === T_NAME || k === T_NUMBER) && this.endsLeaf(p + 1)) {
      const a = t.start[p]!;
      const b = t.end[p]!;
      if (k === T_NUMBER) {
        this.p++;
        return { e: parseNumber(this.chunkText(a, b), this.span(a, b), this.st.report), start: a, end: b };
      }
      const w = t.text[p]!;
      if (!KEYWORDS.has(w)) {
        this.p++;
        return { e: resolveImported(this.st.names, w, this.span(a, b)), start: a, end: b };
      }
    }
    const x = this.chain();
    if (this.isWord('if') || this.isOp(':=')) this.fail();
    return x;
  }

  /** True when the token at `at` ends an expression that is one primary: `,` `)` `]` `}` `=` `:`, a newline or the end. */
  private endsLeaf(at: number): boolean {
    const k = this.t.kind[at];
    if (k === T_OP) {
      const o = this.t.text[at];
      return o === ',' || o === ')' || o === ']' || o === '}' || o === '=' || o === ':';
    }
    return k === T_NEWLINE || k === T_END;
  }

  /** Grammar `Disjunction`: a binary chain without a tail. */
  protected chain(): Ext {
    this.operand();
    const start = this.opStart;
    let end = this.opEnd;
    let op = this.binOp();
    if (op === null) {
      // A lone operand without prefixes (most expressions): no operand record is built.
      if (this.opPrefixes === null) return { e: this.opExpr, start, end };
      return { e: precedence([this.operandTok()], [], this.st.report), start, end };
    }
    const operands: OperandTok[] = [this.operandTok()];
    const ops: OpTok[] = [];
    while (op !== null) {
      ops.push(op);
      this.operand();
      operands.push(this.operandTok());
      end = this.opEnd;
      op = this.binOp();
    }
    return { e: precedence(operands, ops, this.st.report), start, end };
  }

  /** The operand `operand()` read last, as the record `precedence` takes. */
  private operandTok(): OperandTok {
    return {
      prefixes: this.opPrefixes ?? empty(),
      primary: this.opExpr,
      start: this.st.map.start(this.opHeadStart),
      end: this.st.map.end(this.opEnd),
    };
  }

  /** A binary operator at the cursor (consumed), or null. */
  private binOp(): OpTok | null {
    const t = this.t;
    const p = this.p;
    const k = t.kind[p];
    if (k === T_OP) {
      const o = t.text[p]!;
      if (!BIN_SYMS.has(o)) return null;
      this.p++;
      return { op: o, span: this.span(t.start[p]!, t.end[p]!) };
    }
    if (k !== T_NAME) return null;
    const w = t.text[p]!;
    if (w === 'not' && this.isWord('in', p + 1)) {
      this.p += 2;
      return { op: 'not in', span: this.span(t.start[p]!, t.end[p + 1]!) };
    }
    if (w === 'is' && this.isWord('not', p + 1)) {
      this.p += 2;
      return { op: 'is not', span: this.span(t.start[p]!, t.end[p + 1]!) };
    }
    if (w === 'and' || w === 'or' || w === 'in' || w === 'is') {
      this.p++;
      return { op: w, span: this.span(t.start[p]!, t.end[p]!) };
    }
    return null;
  }

  /**
   * The operand `operand()` read last, in fields (no record per operand): its expression, its
   * prefix operators (null: none), its chunk extent with prefixes and that of its primary.
   */
  private opExpr: Expr = NO_EXPR;
  private opPrefixes: { op: string; span: Span }[] | null = null;
  private opStart = 0;
  private opEnd = 0;
  private opHeadStart = 0;

  /** Grammar `Operand`: prefix operators, a primary, trailers; the result is left in the `op*` fields. */
  private operand(): void {
    const t = this.t;
    let prefixes: { op: string; span: Span }[] | null = null;
    const first = this.p;
    for (;;) {
      const p = this.p;
      const k = t.kind[p];
      const w = t.text[p];
      if ((k === T_OP && (w === '-' || w === '+' || w === '~')) || (k === T_NAME && (w === 'not' || w === 'await'))) {
        (prefixes ??= []).push({ op: w!, span: this.span(t.start[p]!, t.end[p]!) });
        this.p++;
      } else break;
    }
    const head = this.primary();
    let e = head.e;
    let end = head.end;
    // The original offset the trailers' spans start at (that of the primary, parentheses included).
    let hs = -1;
    for (;;) {
      if (this.isOp('.')) {
        this.p++;
        const name = this.ident();
        end = t.end[this.p - 1]!;
        if (hs < 0) hs = this.st.map.start(head.start);
        e = makeAttr(e, name, { start: hs, end: this.st.map.end(end) });
      } else if (this.isOp('(')) {
        this.p++;
        const args = this.argList();
        end = this.expectOp(')');
        if (hs < 0) hs = this.st.map.start(head.start);
        e = makeCall(this.bctx, e, args, { start: hs, end: this.st.map.end(end) });
      } else if (this.isOp('[')) {
        this.p++;
        const index = this.subscriptList();
        end = this.expectOp(']');
        if (hs < 0) hs = this.st.map.start(head.start);
        e = { kind: 'Subscript', value: e, index, start: hs, end: this.st.map.end(end) };
      } else break;
    }
    this.opExpr = e;
    this.opPrefixes = prefixes;
    this.opStart = t.start[first]!;
    this.opEnd = end;
    this.opHeadStart = head.start;
  }

  /** Grammar `ArgList?` up to (not including) the closing parenthesis. */
  protected argList(): ArgDesc[] {
    const args: ArgDesc[] = [];
    while (!this.isOp(')')) {
      const p = this.p;
      if (this.t.kind[p] === T_NAME && this.isOp('=', p + 1) && !KEYWORDS.has(this.t.text[p]!)) {
        this.p += 2;
        const v = this.expr();
        args.push({ name: this.t.text[p]!, value: v.e, start: this.os(this.t.start[p]!), end: this.oe(v.end) });
      } else {
        const v = this.expr();
        if (this.isWord('for') || this.isWord('async')) this.fail();
        args.push({ name: null, value: v.e, start: this.os(v.start), end: this.oe(v.end) });
      }
      if (!this.isOp(',')) break;
      this.p++;
    }
    return args;
  }

  /** Grammar `SubscriptList`: one item, or a Tuple of items; slices without a step. */
  private subscriptList(): Expr {
    const first = this.subItem();
    if (!this.isOp(',')) return first.e;
    const items: Expr[] = [first.e];
    let end = first.end;
    while (this.isOp(',')) {
      end = this.t.end[this.p]!;
      this.p++;
      if (this.isOp(']')) break;
      const x = this.subItem();
      items.push(x.e);
      end = x.end;
    }
    return { kind: 'Tuple', elts: exact(items), start: this.os(first.start), end: this.oe(end) };
  }

  private subItem(): Ext {
    const start = this.t.start[this.p]!;
    let lower: Ext | null = null;
    if (!this.isOp(':')) {
      lower = this.expr();
      if (!this.isOp(':')) return lower;
    }
    let end = this.t.end[this.p]!;
    this.p++;
    let upper: Ext | null = null;
    if (this.startsExpr()) {
      upper = this.expr();
      end = upper.end;
    }
    if (this.isOp(':')) this.fail();
    const e: Expr = {
      kind: 'Slice',
      lower: lower ? lower.e : null,
      upper: upper ? upper.e : null,
      start: this.os(start),
      end: this.oe(end),
    };
    return { e, start, end };
  }

  /** Grammar `ident | number | Atom`. */
  private primary(): Ext {
    const t = this.t;
    const p = this.p;
    const k = t.kind[p];
    const a = t.start[p]!;
    const b = t.end[p]!;
    if (k === T_NAME) {
      const w = t.text[p]!;
      this.p++;
      if (!KEYWORDS.has(w)) return { e: resolveImported(this.st.names, w, this.span(a, b)), start: a, end: b };
      if (w === 'True' || w === 'False')
        return { e: { kind: 'Bool', value: w === 'True', start: this.os(a), end: this.oe(b) }, start: a, end: b };
      if (w === 'None') return { e: { kind: 'None', start: this.os(a), end: this.oe(b) }, start: a, end: b };
      return this.fail();
    }
    if (k === T_NUMBER) {
      this.p++;
      return { e: parseNumber(this.chunkText(a, b), this.span(a, b), this.st.report), start: a, end: b };
    }
    if (k === T_STRING) {
      let value = '';
      let end = b;
      let f = false;
      while (t.kind[this.p] === T_STRING) {
        const s = t.start[this.p]!;
        end = t.end[this.p]!;
        const raw = this.chunkText(s, end);
        if (isFString(raw)) f = true;
        value += decodeString(raw, this.span(s, end), this.st.report);
        this.p++;
      }
      const e: StrExpr = { kind: 'Str', value, start: this.os(a), end: this.oe(end) };
      if (f) e.fstring = true;
      return { e, start: a, end };
    }
    if (k !== T_OP) return this.fail();
    const o = t.text[p]!;
    this.p++;
    if (o === '(') return this.parenAtom(a);
    if (o === '[') return this.bracketAtom(a);
    if (o === '{') return this.braceAtom(a);
    if (o === '...' && this.st.ellipsisOk) return { e: { kind: 'Name', id: '...', start: this.os(a), end: this.oe(b) }, start: a, end: b };
    return this.fail();
  }

  private parenAtom(a: number): Ext {
    if (this.isOp(')')) {
      const end = this.t.end[this.p++]!;
      return { e: { kind: 'Tuple', elts: [], start: this.os(a), end: this.oe(end) }, start: a, end };
    }
    const first = this.expr();
    if (this.isOp(')')) {
      const end = this.t.end[this.p++]!;
      return { e: first.e, start: a, end };
    }
    const elts = this.restOfList(first, ')');
    const end = this.expectOp(')');
    return { e: { kind: 'Tuple', elts, start: this.os(a), end: this.oe(end) }, start: a, end };
  }

  /** `, x, y,` after a first item, up to (not including) `close`. */
  private restOfList(first: Ext, close: string): Expr[] {
    const elts: Expr[] = [first.e];
    while (this.isOp(',')) {
      this.p++;
      if (this.isOp(close)) break;
      elts.push(this.expr().e);
    }
    if (!this.isOp(close)) this.fail();
    return exact(elts);
  }

  private bracketAtom(a: number): Ext {
    if (this.isOp(']')) {
      const end = this.t.end[this.p++]!;
      return { e: { kind: 'List', elts: [], start: this.os(a), end: this.oe(end) }, start: a, end };
    }
    const first = this.expr();
    if (this.isWord('for') || this.isWord('async')) return this.comprehension(a, first);
    const elts = this.restOfList(first, ']');
    const end = this.expectOp(']');
    return { e: { kind: 'List', elts, start: this.os(a), end: this.oe(end) }, start: a, end };
  }

  /** `[elt for x in iter if c]`: one plain `for` clause with a name target (as semantics.ts' comprehension). */
  private comprehension(a: number, elt: Ext): Ext {
    if (!this.isWord('for')) this.fail();
    this.p++;
    const tp = this.p;
    const target = this.ident();
    if (this.isOp(',')) this.fail();
    if (!this.isWord('in')) this.fail();
    this.p++;
    const iter = this.chain();
    const conds: Expr[] = [];
    while (this.isWord('if')) {
      this.p++;
      conds.push(this.chain().e);
    }
    const end = this.expectOp(']');
    const t: NameExpr = { kind: 'Name', id: target, start: this.os(this.t.start[tp]!), end: this.oe(this.t.end[tp]!) };
    return {
      e: { kind: 'Comp', elt: elt.e, target: t, iter: iter.e, conds: exact(conds), start: this.os(a), end: this.oe(end) },
      start: a,
      end,
    };
  }

  private braceAtom(a: number): Ext {
    const entries: DictExpr['entries'] = [];
    while (!this.isOp('}')) {
      const key = this.expr();
      if (!this.isOp(':')) this.fail();
      this.p++;
      const value = this.expr();
      entries.push({ key: key.e, value: value.e });
      if (!this.isOp(',')) break;
      this.p++;
    }
    const end = this.expectOp('}');
    return { e: { kind: 'Dict', entries: exact(entries), start: this.os(a), end: this.oe(end) }, start: a, end };
  }

  /** The pre-tokenized text between chunk offsets [a, b). */
  protected chunkText(a: number, b: number): string {
    return this.source.slice(a, b);
  }

  /** True when the whole token array has been read. */
  atEnd(): boolean {
    return this.t.kind[this.p] === T_END;
  }
}
