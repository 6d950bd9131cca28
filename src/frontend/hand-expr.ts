/**
 * Expression part of the DSL parser: recursive descent over hand-tokens.ts, building the IR
 * (node spans: the extent of the text read, mapped back through the chunk's OffsetMap) through
 * the builders (build.ts, precedence.ts, literals.ts). Python constructs the DSL does not
 * support (conditional expressions, `:=`, lambda, yield, `*args`, generator expressions, set
 * literals, comprehensions other than `deps=`, slice steps) are read and reported as
 * unsupported at their location; a syntax error is recorded as hand-cursor.ts describes.
 */

import { empty, exact } from '../ir/compact.js';
import type { DictExpr, Expr, NameExpr, Span, StrExpr } from '../ir/nodes.js';
import { type ArgDesc, makeAttr, makeCall, resolveImported } from './build.js';
import { X_COLON, X_COMMA, X_ELSE, X_EXPR, X_FOR, X_IN, X_RBRACE, X_RBRACKET, X_RPAREN } from './hand-cursor.js';
import { type Ext, TargetParser } from './hand-targets.js';
import { KEYWORDS, T_END, T_KWNAME, T_NAME, T_NEWLINE, T_NUMBER, T_OP, T_STRING } from './hand-tokens.js';
import { decodeString, isFString, parseNumber } from './literals.js';
import { type OperandTok, type OpTok, precedence } from './precedence.js';

const BIN_SYMS = new Set(['**', '//', '<<', '>>', '<=', '>=', '==', '!=', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', '@']);

/** The initial value of the operand field (never read before an operand is parsed). */
const NO_EXPR: Expr = { kind: 'None', start: 0, end: 0 };

export type { Ext };

/** Reports "<what> is/are not supported inside a @pl.program" (plural when `what` names a kind of thing). */
function notSupported(what: string): string {
  return `${what} ${/s$|s \(/.test(what) ? 'are' : 'is'} not supported inside a @pl.program`;
}

/** Recursive-descent reader of DSL expressions over a token array (one chunk). */
export class ExprParser extends TargetParser {
  /** Reports `what` as not supported at chunk offsets [a, b). */
  protected unsupported(a: number, b: number, what: string): never {
    return this.st.report.unsupported(this.span(a, b), notSupported(what));
  }

  /** True when the token at `at` can start an expression. */
  protected startsExpr(at = this.p): boolean {
    const k = this.t.kind[at];
    if (k === T_NUMBER || k === T_STRING || k === T_KWNAME) return true;
    if (k === T_NAME) {
      const w = this.t.text[at]!;
      return (
        !KEYWORDS.has(w) || w === 'True' || w === 'False' || w === 'None' || w === 'not' || w === 'await' || w === 'lambda' || w === 'yield'
      );
    }
    if (k === T_OP) {
      const o = this.t.text[at]!;
      return o === '(' || o === '[' || o === '{' || o === '-' || o === '+' || o === '~' || o === '...';
    }
    return false;
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

  /** Grammar `Expr`: a binary chain; a conditional or `:=` tail is read and reported. */
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
    if (this.isWord('if')) {
      this.p++;
      this.chain();
      if (!this.isWord('else')) this.fail(X_ELSE);
      this.p++;
      const y = this.expr();
      return this.unsupported(x.start, y.end, 'conditional expressions (x if c else y)');
    }
    if (this.isOp(':=')) {
      this.p++;
      const y = this.expr();
      return this.unsupported(x.start, y.end, "':=' assignment expressions");
    }
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
      if (this.isOp('.') && !this.isOp('.', this.p + 1)) {
        this.p++;
        const name = this.ident();
        end = t.end[this.p - 1]!;
        if (hs < 0) hs = this.st.map.start(head.start);
        e = makeAttr(e, name, { start: hs, end: this.st.map.end(end) });
      } else if (this.isOp('(')) {
        this.p++;
        const args = this.argList();
        end = this.expectOp(')', X_RPAREN | this.ifSpaced(X_COMMA));
        if (hs < 0) hs = this.st.map.start(head.start);
        e = makeCall(this.bctx, e, args, { start: hs, end: this.st.map.end(end) });
      } else if (this.isOp('[')) {
        this.p++;
        const index = this.subscriptList();
        end = this.expectOp(']', X_RBRACKET | this.ifSpaced(X_COMMA | X_COLON));
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
      } else if (this.isOp('*') || this.isOp('**')) {
        const a = this.t.start[p]!;
        const double = this.isOp('**') || this.isOp('*', p + 1);
        this.p += this.isOp('*', p + 1) ? 2 : 1;
        const v = this.expr();
        this.unsupported(a, v.end, double ? "'**' arguments" : "'*' arguments");
      } else {
        if (!this.startsExpr()) this.fail(X_RPAREN | this.ifSpaced(X_EXPR));
        const v = this.expr();
        if (this.isWord('for') || this.isWord('async')) {
          const end = this.compFor();
          this.unsupported(v.start, end, 'generator expressions');
        }
        args.push({ name: null, value: v.e, start: this.os(v.start), end: this.oe(v.end) });
      }
      if (!this.isOp(',')) break;
      this.p++;
    }
    return args;
  }

  /**
   * Grammar `CompFor`: `for x in it if c ...` clauses (at least one) of a comprehension or
   * generator; the chunk offset it ends at. `clauses` receives each clause read.
   */
  protected compFor(clauses: { async: boolean; target: Ext; iter: Ext; conds: Expr[] }[] = []): number {
    let end = 0;
    do {
      let async = false;
      if (this.isWord('async')) {
        async = true;
        this.p++;
      }
      if (!this.isWord('for')) this.fail(X_FOR);
      this.p++;
      const target = this.targetList();
      if (!this.isWord('in')) this.fail(X_IN);
      this.p++;
      const iter = this.chain();
      end = iter.end;
      const conds: Expr[] = [];
      while (this.isWord('if')) {
        this.p++;
        const c = this.chain();
        conds.push(c.e);
        end = c.end;
      }
      clauses.push({ async, target, iter, conds });
    } while (this.isWord('for') || this.isWord('async'));
    return end;
  }

  /** Grammar `SubscriptList`: one item, or a Tuple of items. */
  private subscriptList(): Expr {
    const first = this.subItem();
    if (!this.isOp(',')) return first.e;
    const items: Expr[] = [first.e];
    let end = first.end;
    while (this.isOp(',')) {
      end = this.t.end[this.p]!;
      this.p++;
      if (this.isOp(']')) break;
      if (!this.startsExpr() && !this.isOp(':')) this.fail(X_RBRACKET | this.ifSpaced(X_EXPR | X_COLON));
      const x = this.subItem();
      items.push(x.e);
      end = x.end;
    }
    return { kind: 'Tuple', elts: exact(items), start: this.os(first.start), end: this.oe(end) };
  }

  /** Grammar `SubItem`: an expression or a slice (a slice step is reported). */
  private subItem(): Ext {
    const start = this.t.start[this.p]!;
    let lower: Ext | null = null;
    if (!this.isOp(':')) {
      if (!this.startsExpr()) this.fail(X_EXPR | X_COLON);
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
    if (this.isOp(':')) {
      const s = this.t.start[this.p]!;
      this.p++;
      if (this.startsExpr()) {
        const step = this.expr();
        this.st.report.unsupported(
          this.span(s, step.end),
          "a slice step is not supported in a tensor or tile subscript; write 'start:stop' without a step",
        );
      }
    }
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
    if (k === T_NAME || k === T_KWNAME) {
      const w = t.text[p]!;
      if (k === T_KWNAME || !KEYWORDS.has(w)) {
        this.p++;
        return { e: resolveImported(this.st.names, w, this.span(a, b)), start: a, end: b };
      }
      if (w === 'True' || w === 'False') {
        this.p++;
        return { e: { kind: 'Bool', value: w === 'True', start: this.os(a), end: this.oe(b) }, start: a, end: b };
      }
      if (w === 'None') {
        this.p++;
        return { e: { kind: 'None', start: this.os(a), end: this.oe(b) }, start: a, end: b };
      }
      if (w === 'lambda') return this.lambda(a);
      if (w === 'yield') {
        this.p++;
        let end = b;
        if (this.startsExpr()) end = this.exprList().end;
        return this.unsupported(a, end, "'yield' (use pl.yield_)");
      }
      return this.fail(X_EXPR);
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
    if (k !== T_OP) return this.fail(X_EXPR);
    const o = t.text[p]!;
    if (o === '(') {
      this.p++;
      return this.parenAtom(a);
    }
    if (o === '[') {
      this.p++;
      return this.bracketAtom(a);
    }
    if (o === '{') {
      this.p++;
      return this.braceAtom(a);
    }
    if (o === '...') {
      this.p++;
      // (A syntax error right after it comes first.)
      if (this.isOp('.')) {
        this.p++;
        this.ident();
      }
      if (this.st.ellipsisOk) return { e: { kind: 'Name', id: '...', start: this.os(a), end: this.oe(b) }, start: a, end: b };
      return this.st.report.unsupported(
        this.span(a, b),
        "'...' is only read as the whole body of a function (an external kernel or an abstract SubWorker); write pass for an empty block",
      );
    }
    return this.fail(X_EXPR);
  }

  /** `lambda params: body` (the cursor at `lambda`): read and reported. */
  private lambda(a: number): never {
    this.p++;
    while (!this.isOp(':') && this.t.kind[this.p] !== T_NEWLINE && this.t.kind[this.p] !== T_END) this.p++;
    this.expectOp(':', X_COLON);
    const body = this.expr();
    return this.unsupported(a, body.end, 'lambda');
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
    if (this.isWord('for') || this.isWord('async')) {
      this.compFor();
      const end = this.expectOp(')', X_RPAREN);
      return this.unsupported(a, end, 'generator expressions');
    }
    const elts = this.restOfList(first, ')', X_RPAREN);
    const end = this.expectOp(')', X_RPAREN | X_COMMA);
    return { e: { kind: 'Tuple', elts, start: this.os(a), end: this.oe(end) }, start: a, end };
  }

  /** `, x, y,` after a first item, up to (not including) `close`. */
  private restOfList(first: Ext, close: string, closeMask: number): Expr[] {
    const elts: Expr[] = [first.e];
    while (this.isOp(',')) {
      this.p++;
      if (this.isOp(close)) break;
      if (!this.startsExpr()) this.fail(X_EXPR | closeMask);
      elts.push(this.expr().e);
    }
    if (!this.isOp(close)) this.fail(closeMask | this.ifSpaced(X_COMMA));
    return exact(elts);
  }

  private bracketAtom(a: number): Ext {
    if (this.isOp(']')) {
      const end = this.t.end[this.p++]!;
      return { e: { kind: 'List', elts: [], start: this.os(a), end: this.oe(end) }, start: a, end };
    }
    if (!this.startsExpr()) this.fail(X_EXPR | X_RBRACKET);
    const first = this.expr();
    if (this.isWord('for') || this.isWord('async')) return this.comprehension(a, first);
    const elts = this.restOfList(first, ']', X_RBRACKET);
    const end = this.expectOp(']', X_RBRACKET | X_COMMA);
    return { e: { kind: 'List', elts, start: this.os(a), end: this.oe(end) }, start: a, end };
  }

  /**
   * `[elt for x in iter if c]`: a CompExpr, with PyPTO's rejections (`ast_parser.py`,
   * `_unroll_deps_comprehension`): one plain `for` clause with a name target. Where it may
   * appear (only in `deps=`) is checked when the function is built.
   */
  private comprehension(a: number, elt: Ext): Ext {
    const clauses: { async: boolean; target: Ext; iter: Ext; conds: Expr[] }[] = [];
    this.compFor(clauses);
    const end = this.expectOp(']', X_RBRACKET);
    const span = this.span(a, end);
    if (clauses.length !== 1) {
      return this.st.report.syntax(
        span,
        "a deps= comprehension supports a single 'for' clause; inline the inner generator(s) or write a single flat 'for ... in ...'",
      );
    }
    const c = clauses[0]!;
    if (c.async) return this.st.report.syntax(span, "a deps= comprehension cannot be 'async for'");
    const target = c.target.e;
    if (target.kind !== 'Name') {
      return this.st.report.syntax(target, "a deps= comprehension target must be a single name; use 'for i in ...', not 'for i, j in ...'");
    }
    return {
      e: { kind: 'Comp', elt: elt.e, target: target as NameExpr, iter: c.iter.e, conds: exact(c.conds), start: span.start, end: span.end },
      start: a,
      end,
    };
  }

  private braceAtom(a: number): Ext {
    const entries: DictExpr['entries'] = [];
    if (!this.isOp('}')) {
      const first = this.dictEntry();
      if (first === null) {
        // A set: `{x, y}` or `{x for ...}`.
        this.p = this.setStart;
        const x = this.expr();
        if (this.isWord('for') || this.isWord('async')) {
          this.compFor();
          const end = this.expectOp('}', X_RBRACE);
          return this.unsupported(a, end, 'set comprehensions');
        }
        this.restOfList(x, '}', X_RBRACE);
        const end = this.expectOp('}', X_RBRACE | X_COMMA);
        return this.unsupported(a, end, 'set literals');
      }
      if (this.isWord('for') || this.isWord('async')) {
        this.compFor();
        const end = this.expectOp('}', X_RBRACE);
        return this.unsupported(a, end, 'dict comprehensions');
      }
      entries.push(first);
      while (this.isOp(',')) {
        this.p++;
        if (this.isOp('}')) break;
        if (!this.startsExpr() && !this.isOp('**')) this.fail(X_EXPR | X_RBRACE);
        const e = this.dictEntry();
        if (e === null) this.fail(X_COLON);
        entries.push(e);
      }
    }
    const end = this.expectOp('}', X_RBRACE | X_COMMA);
    return { e: { kind: 'Dict', entries: exact(entries), start: this.os(a), end: this.oe(end) }, start: a, end };
  }

  /** Where the key of the last dictEntry() started (a set's first item, when it had no ':'). */
  private setStart = 0;

  /** Grammar `DictEntry` (`k: v`; `**m` is reported); null when the key has no ':' after it (a set item). */
  private dictEntry(): DictExpr['entries'][number] | null {
    if (this.isOp('**')) {
      const a = this.t.start[this.p++]!;
      const v = this.expr();
      return this.unsupported(a, v.end, "'**' in a dict literal");
    }
    this.setStart = this.p;
    const first = this.t.text[this.p - 1] === '{';
    const key = this.expr();
    if (!this.isOp(':')) {
      if (this.isOp(',') || this.isOp('}') || this.isWord('for') || this.isWord('async')) return null;
      // (After a first item `}` would close a set.)
      this.fail(first ? X_COLON | X_RBRACE | this.ifSpaced(X_COMMA) : X_COLON);
    }
    this.p++;
    const value = this.expr();
    return { key: key.e, value: value.e };
  }

  /** True when the whole token array has been read. */
  atEnd(): boolean {
    return this.t.kind[this.p] === T_END;
  }
}
