/**
 * Statement part of the hand-written DSL parser, and its entry point `handMatch`: reads a
 * chunk of pre-tokenized statements (grammar rule `Chunk`), a program, function or clause
 * header, or one expression (`ExprItem`, `ConstRhs`) into exactly the IR the Ohm grammar and semantics build. Ohm stays the
 * reference: whatever this parser does not accept — any syntax error, any construct the
 * semantics reports, anything unusual — makes `handMatch` return undefined, and the caller
 * matches the piece with the grammar as before, so every diagnostic is unchanged.
 */

import { exact } from '../ir/compact.js';
import type { NameExpr, Stmt } from '../ir/nodes.js';
import {
  type Clause,
  type DecoratorDesc,
  type DefHeadDesc,
  type Head,
  makeAssign,
  makeFor,
  makeIf,
  makeWhile,
  makeWith,
  type RawParam,
  type Reporter,
} from './build.js';
import { ExprParser, type Ext, type HandState, KEYWORDS, NO_PARSE } from './hand-expr.js';
import { T_DEDENT, T_END, T_INDENT, T_NAME, T_NEWLINE, T_OP, tokenize } from './hand-tokens.js';
import type { Chunk } from './layout.js';

/** Any report sends the piece back to the grammar (which reports it in its own order). */
const bail: Reporter = {
  unsupported: () => {
    throw NO_PARSE;
  },
  syntax: () => {
    throw NO_PARSE;
  },
};

/** Recursive-descent reader of DSL statements (grammar rules Chunk, Stmt, SimpleStmts, the compound statements). */
class StmtParser extends ExprParser {
  /** Grammar `Chunk`: statements to the end of the text. */
  chunk(): Stmt[] {
    const out: Stmt[] = [];
    do this.stmt(out);
    while (this.t.kind[this.p] !== T_END);
    return out;
  }

  private stmt(out: Stmt[]): void {
    if (this.t.kind[this.p] === T_NAME) {
      switch (this.t.text[this.p]) {
        case 'if':
          out.push(this.ifStmt());
          return;
        case 'for':
          out.push(this.forStmt());
          return;
        case 'while':
          out.push(this.whileStmt());
          return;
        case 'with':
          out.push(this.withStmt());
          return;
        default:
          break;
      }
    }
    this.simpleStmts(out);
  }

  /** Grammar `SimpleStmts`: small statements separated by ';', ending the line. */
  private simpleStmts(out: Stmt[]): void {
    for (;;) {
      out.push(this.smallStmt());
      if (!this.isOp(';')) break;
      this.p++;
      if (this.t.kind[this.p] === T_NEWLINE) break;
    }
    if (this.t.kind[this.p] !== T_NEWLINE) this.fail();
    this.p++;
  }

  private smallStmt(): Stmt {
    const t = this.t;
    const p = this.p;
    const a = t.start[p]!;
    if (t.kind[p] === T_NAME && KEYWORDS.has(t.text[p]!)) {
      const w = t.text[p]!;
      if (w === 'return') {
        this.p++;
        if (!this.startsExpr()) return { kind: 'Return', value: null, start: this.os(a), end: this.oe(t.end[p]!) };
        const v = this.exprList();
        return { kind: 'Return', value: v.e, start: this.os(a), end: this.oe(v.end) };
      }
      if (w === 'pass' || w === 'break' || w === 'continue') {
        this.p++;
        const start = this.os(a);
        const end = this.oe(t.end[p]!);
        return w === 'pass'
          ? { kind: 'Pass', start, end }
          : w === 'break'
            ? { kind: 'Break', start, end }
            : { kind: 'Continue', start, end };
      }
      if (!this.startsExpr()) this.fail();
    }
    const target = this.exprList();
    if (this.isOp('=')) {
      this.p++;
      const value = this.exprList();
      if (this.isOp('=')) this.fail();
      return makeAssign(this.bctx, target.e, value.e, null, this.span(a, value.end));
    }
    if (this.isOp(':')) {
      this.p++;
      const ann = this.expr();
      if (!this.isOp('=')) this.fail();
      this.p++;
      const value = this.exprList();
      return makeAssign(this.bctx, target.e, value.e, ann.e, this.span(a, value.end));
    }
    return { kind: 'ExprStmt', value: target.e, start: this.os(a), end: this.oe(target.end) };
  }

  /** Grammar `Suite`: an indented block, or simple statements on the header's line. */
  private suite(): Stmt[] {
    const out: Stmt[] = [];
    if (this.t.kind[this.p] !== T_NEWLINE) {
      this.simpleStmts(out);
      return out;
    }
    this.p++;
    if (this.t.kind[this.p] !== T_INDENT) this.fail();
    this.p++;
    do this.stmt(out);
    while (this.t.kind[this.p] !== T_DEDENT && this.t.kind[this.p] !== T_END);
    if (this.t.kind[this.p] !== T_DEDENT) this.fail();
    this.p++;
    return exact(out);
  }

  /** `<kw> ... :` — the colon that ends a clause header: its end offset. */
  private colon(): number {
    return this.expectOp(':');
  }

  private condHead(kind: 'if' | 'elif' | 'while'): Head {
    const a = this.t.start[this.p++]!;
    const cond = this.expr().e;
    const span = this.span(a, this.colon());
    return { kind, cond, start: span.start, span };
  }

  private ifStmt(): Stmt {
    const clauses: Clause[] = [];
    const head = this.condHead('if');
    clauses.push({ head, body: this.suite() });
    while (this.isWord('elif')) {
      const h = this.condHead('elif');
      clauses.push({ head: h, body: this.suite() });
    }
    if (this.isWord('else')) {
      const a = this.t.start[this.p++]!;
      const span = this.span(a, this.colon());
      const h: Head = { kind: 'else', start: span.start, span };
      clauses.push({ head: h, body: this.suite() });
    }
    return makeIf(this.bctx, clauses);
  }

  private whileStmt(): Stmt {
    const head = this.condHead('while');
    const body = this.suite();
    if (this.isWord('else')) this.fail();
    return makeWhile(this.bctx, { head, body }, null);
  }

  private forStmt(): Stmt {
    const head = this.forHead();
    const body = this.suite();
    if (this.isWord('else')) this.fail();
    return makeFor(this.bctx, { head, body }, null);
  }

  private withStmt(): Stmt {
    const head = this.withHead();
    return makeWith(this.bctx, { head, body: this.suite() });
  }

  private elseHead(): Head {
    const a = this.t.start[this.p++]!;
    const span = this.span(a, this.colon());
    return { kind: 'else', start: span.start, span };
  }

  private forHead(): Head {
    const a = this.t.start[this.p++]!;
    const target = this.targetList().e;
    if (!this.isWord('in')) this.fail();
    this.p++;
    const iter = this.exprList().e;
    const span = this.span(a, this.colon());
    return { kind: 'for', target, iter, start: span.start, span };
  }

  private withHead(): Head {
    const a = this.t.start[this.p++]!;
    const items: Extract<Head, { kind: 'with' }>['items'] = [];
    for (;;) {
      const x = this.expr();
      let asName: NameExpr | null = null;
      let end = x.end;
      if (this.isWord('as')) {
        this.p++;
        const q = this.p;
        asName = { kind: 'Name', id: this.ident(), start: this.os(this.t.start[q]!), end: this.oe(this.t.end[q]!) };
        end = this.t.end[q]!;
      }
      items.push({ expr: x.e, asName, span: this.span(x.start, end) });
      if (!this.isOp(',')) break;
      this.p++;
    }
    const span = this.span(a, this.colon());
    return { kind: 'with', items, start: span.start, span };
  }

  // ---------------------------------------------------------------- headers

  /** Grammar `ClauseRest`: null after a block header, else the statements on the header's line. */
  private clauseRest(): Stmt[] | null {
    if (this.t.kind[this.p] === T_NEWLINE) {
      this.p++;
      return null;
    }
    const out: Stmt[] = [];
    this.simpleStmts(out);
    return out;
  }

  /** Grammar `ClauseHeader`: one header line of a compound statement (split by program.ts). */
  clauseHeader(): { head: Head; inline: Stmt[] | null } {
    let head: Head;
    switch (this.t.kind[this.p] === T_NAME ? this.t.text[this.p] : '') {
      case 'if':
        head = this.condHead('if');
        break;
      case 'elif':
        head = this.condHead('elif');
        break;
      case 'while':
        head = this.condHead('while');
        break;
      case 'else':
        head = this.elseHead();
        break;
      case 'for':
        head = this.forHead();
        break;
      case 'with':
        head = this.withHead();
        break;
      default:
        return this.fail();
    }
    return { head, inline: this.clauseRest() };
  }

  /** Grammar `Decorator`: `@ expr` and its line end. */
  private decorator(): DecoratorDesc {
    const a = this.t.start[this.p]!;
    this.p++;
    const x = this.expr();
    if (this.t.kind[this.p] !== T_NEWLINE) this.fail();
    return { expr: x.e, span: this.span(a, this.t.end[this.p++]!) };
  }

  private decorators(): DecoratorDesc[] {
    const out: DecoratorDesc[] = [];
    while (this.isOp('@')) out.push(this.decorator());
    return out;
  }

  /** Grammar `ProgramHeader`: the decorators and `class Name(...):` line of a program. */
  programHeader(): { decorators: DecoratorDesc[]; name: string } {
    const decorators = this.decorators();
    if (decorators.length === 0 || !this.isWord('class')) this.fail();
    this.p++;
    const name = this.ident();
    if (this.isOp('(')) {
      this.p++;
      this.argList();
      this.expectOp(')');
    }
    this.colon();
    if (this.t.kind[this.p] !== T_NEWLINE) this.fail();
    this.p++;
    return { decorators, name };
  }

  /** Grammar `FuncHeader`: the decorators and `def` line of a function (and its body when on the same line). */
  funcHeader(): { decorators: DecoratorDesc[]; head: DefHeadDesc; inline: Stmt[] | null } {
    const decorators = this.decorators();
    if (!this.isWord('def')) this.fail();
    const a = this.t.start[this.p++]!;
    const name = this.ident();
    const lp = this.t.start[this.p]!;
    this.expectOp('(');
    const params: RawParam[] = [];
    while (!this.isOp(')')) {
      const q = this.p;
      const pname = this.ident();
      const nameSpan = this.span(this.t.start[q]!, this.t.end[q]!);
      let annotation: Ext | null = null;
      if (this.isOp(':')) {
        this.p++;
        annotation = this.expr();
      }
      if (this.isOp('=')) this.fail();
      params.push({
        name: pname,
        nameSpan,
        annotation: annotation ? annotation.e : null,
        span: this.span(this.t.start[q]!, annotation ? annotation.end : this.t.end[q]!),
      });
      if (!this.isOp(',')) break;
      this.p++;
    }
    const rp = this.expectOp(')');
    let returns: Ext | null = null;
    if (this.isOp('->')) {
      this.p++;
      returns = this.expr();
    }
    const span = this.span(a, this.colon());
    const head: DefHeadDesc = {
      name,
      params,
      paramsSpan: { start: this.st.map.start(lp), end: this.st.map.end(rp) },
      returns: returns ? returns.e : null,
      start: span.start,
      span,
    };
    return { decorators, head, inline: this.clauseRest() };
  }

  /** Grammar `TargetList`: names, parenthesised or bracketed target lists (a Tuple when several). */
  private targetList(): Ext {
    const first = this.targetItem();
    if (!this.isOp(',')) return first;
    const items = [first.e];
    let end = first.end;
    while (this.isOp(',')) {
      end = this.t.end[this.p]!;
      this.p++;
      if (!this.startsTarget()) break;
      const x = this.targetItem();
      items.push(x.e);
      end = x.end;
    }
    return { e: { kind: 'Tuple', elts: items, start: this.os(first.start), end: this.oe(end) }, start: first.start, end };
  }

  private startsTarget(): boolean {
    return (this.t.kind[this.p] === T_NAME && !KEYWORDS.has(this.t.text[this.p]!)) || this.isOp('(') || this.isOp('[');
  }

  private targetItem(): Ext {
    const t = this.t;
    const p = this.p;
    const a = t.start[p]!;
    if (t.kind[p] === T_NAME) {
      const id = this.ident();
      return { e: { kind: 'Name', id, start: this.os(a), end: this.oe(t.end[p]!) }, start: a, end: t.end[p]! };
    }
    if (t.kind[p] !== T_OP || (t.text[p] !== '(' && t.text[p] !== '[')) this.fail();
    const close = t.text[p] === '(' ? ')' : ']';
    this.p++;
    if (this.isOp(close)) {
      const end = t.end[this.p++]!;
      return { e: { kind: 'Tuple', elts: [], start: this.os(a), end: this.oe(end) }, start: a, end };
    }
    const inner = this.targetList().e;
    const end = this.expectOp(close);
    if (inner.kind === 'Tuple') return { e: { kind: 'Tuple', elts: inner.elts, start: this.os(a), end: this.oe(end) }, start: a, end };
    return { e: inner, start: a, end };
  }
}

const RULES = new Set(['Chunk', 'ExprItem', 'ConstRhs', 'FuncHeader', 'ProgramHeader', 'ClauseHeader']);

/**
 * The IR of `chunk` read by the hand-written parser as grammar rule `rule` (`Chunk`, a header
 * rule, `ExprItem` or `ConstRhs`), or undefined when it does not accept the text (the caller
 * then matches it with the Ohm grammar, which gives the same IR or the diagnostic).
 */
export function handMatch<T>(chunk: Chunk, rule: string, state: Omit<HandState, 'map'>): T | undefined {
  if (!RULES.has(rule)) return undefined;
  const toks = tokenize(chunk.out, state.pool, state.tokens);
  if (toks === null) return undefined;
  // One object shape for every chunk's state (a spread of differently built states would not be).
  const st: HandState = {
    map: chunk.map,
    report: bail,
    constants: state.constants,
    names: state.names,
    jitFuncs: state.jitFuncs,
    ellipsisOk: state.ellipsisOk,
    pool: state.pool,
    tokens: state.tokens,
  };
  const parser = new StmtParser(chunk.out, toks, st);
  try {
    let r: unknown;
    switch (rule) {
      case 'Chunk':
        r = parser.chunk();
        break;
      case 'FuncHeader':
        r = parser.funcHeader();
        break;
      case 'ProgramHeader':
        r = parser.programHeader();
        break;
      case 'ClauseHeader':
        r = parser.clauseHeader();
        break;
      default:
        r = (rule === 'ExprItem' ? parser.expr() : parser.exprList()).e;
    }
    return parser.atEnd() ? (r as T) : undefined;
  } catch (e) {
    if (e === NO_PARSE || e instanceof RangeError) return undefined;
    throw e;
  }
}
