/**
 * Statement part of the DSL parser (rules Chunk, Stmt, SimpleStmts, the compound statements),
 * with error recovery: a statement with an error (a syntax error, or a construct a builder
 * reports) is recorded and skipped — its line, its indented block and its clause lines — and
 * the parse goes on with the next statement of its block, so every erroneous statement of a
 * chunk is reported from one parse. A compound statement with an error inside is not built.
 */

import { exact } from '../ir/compact.js';
import type { NameExpr, Stmt } from '../ir/nodes.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { type Clause, type Head, makeAssign, makeFor, makeIf, makeWhile, makeWith, type Reporter } from './build.js';
import {
  SYNTAX,
  type SyntaxFault,
  X_AS,
  X_BLOCK,
  X_COLON_ELIF,
  X_COLON_ELSE,
  X_COLON_FOR,
  X_COLON_IF,
  X_COLON_WHILE,
  X_COLON_WITH,
  X_COMMA,
  X_DEDENT,
  X_EOL,
  X_EXPR,
  X_IN,
  X_STMT,
} from './hand-cursor.js';
import { ExprParser } from './hand-expr.js';
import { KEYWORDS, T_DEDENT, T_END, T_INDENT, T_NAME, T_NEWLINE, T_OP } from './hand-tokens.js';

/** An error of a chunk: a syntax error (described by errors.ts) or a builder's diagnostic. */
export type Fault = SyntaxFault | Diagnostic;

/** Reports that do not stop the parse (what they return stands for the node reported). */
const QUIET: Reporter = {
  unsupported: (span) => ({ kind: 'Name', id: '_', start: span.start, end: span.end }) as never,
  syntax: (span) => ({ kind: 'Name', id: '_', start: span.start, end: span.end }) as never,
};

/** Thrown by a compound statement whose body had errors (already recorded): it is skipped, not built. */
const SKIPPED: unique symbol = Symbol('skipped');

const UNSUPPORTED_STMT: Record<string, string> = {
  del: "'del' statements",
  global: "'global' statements",
  nonlocal: "'nonlocal' statements",
  assert: "'assert' statements",
  raise: "'raise' statements",
  import: 'imports',
  from: 'imports',
  try: "'try' statements",
  except: "'except' clauses",
  finally: "'finally' clauses",
  def: 'nested function definitions',
  class: 'nested classes',
  async: "'async' statements",
  '@': 'decorated definitions',
};

const SIMPLE_UNSUPPORTED = new Set(['del', 'global', 'nonlocal', 'assert', 'raise', 'import', 'from']);
const COMPOUND_UNSUPPORTED = new Set(['try', 'except', 'finally', 'def', 'class', 'async']);
const CLAUSE_WORDS = new Set(['elif', 'else', 'except', 'finally']);
const AUG_OPS = new Set(['+=', '-=', '*=', '/=', '//=', '%=', '**=', '>>=', '<<=', '&=', '|=', '^=', '@=']);

/** Recursive-descent reader of DSL statements. */
export class StmtParser extends ExprParser {
  /** The errors recorded so far (source order). */
  readonly faults: Fault[] = [];

  /** Grammar `Chunk`: statements to the end of the text (each statement with an error recorded and skipped). */
  chunk(): Stmt[] {
    const out: Stmt[] = [];
    do this.guardedStmt(out);
    while (this.t.kind[this.p] !== T_END);
    return out;
  }

  /** One statement; an error in it is recorded and the statement skipped. */
  protected guardedStmt(out: Stmt[]): void {
    const s = this.p;
    try {
      this.stmt(out);
    } catch (e) {
      if (e === SYNTAX) this.faults.push(this.takeFault());
      else if (e instanceof DiagnosticError) {
        const f = this.syntaxAfter(s);
        if (f) this.faults.push(f);
        else for (const d of e.diagnostics) this.faults.push(d);
      } else if (e !== SKIPPED) throw e;
      this.farP = -1;
      this.farMask = 0;
      this.p = s;
      this.skipStatement();
    }
  }

  /**
   * The syntax error of the statement starting at token `s`, read again with reports that do
   * not stop the parse, or null when it has none: a statement's syntax error is reported
   * before what a builder reports in it (as Python reports it before PyPTO's parser runs).
   */
  private syntaxAfter(s: number): SyntaxFault | null {
    return this.syntaxIn(s, () => this.stmt([]));
  }

  /** The syntax error `read` meets from token `s` on with reports that do not stop it, or null. */
  protected syntaxIn(s: number, read: () => void): SyntaxFault | null {
    const n = this.faults.length;
    const report = this.st.report;
    this.st.report = QUIET;
    this.bctx.report = QUIET;
    this.p = s;
    this.farP = -1;
    this.farMask = 0;
    try {
      read();
      return null;
    } catch (e) {
      // (Anything else a builder throws when a report did not stop it: no syntax error found.)
      return e === SYNTAX ? this.takeFault() : null;
    } finally {
      this.st.report = report;
      this.bctx.report = report;
      this.faults.length = n;
    }
  }

  /**
   * Moves the cursor from a statement's start past the statement: its logical line, the
   * indented block after it and its clause lines (`elif`, `else`, ...), to the next statement
   * of the block, the block's DEDENT or the end.
   */
  private skipStatement(): void {
    const t = this.t;
    const from = this.p;
    let d = 0;
    for (;;) {
      const k = t.kind[this.p];
      if (k === T_END) break;
      if (k === T_DEDENT) {
        if (d === 0) break;
        d--;
        this.p++;
        if (d === 0 && this.nextStarts()) break;
      } else if (k === T_INDENT) {
        d++;
        this.p++;
      } else if (k === T_NEWLINE) {
        this.p++;
        if (d === 0 && this.nextStarts()) break;
      } else this.p++;
    }
    if (this.p === from && t.kind[this.p] !== T_END) this.p++;
  }

  /** True when the token at the cursor starts a new statement (not an indented block or a clause of the one before). */
  private nextStarts(): boolean {
    const k = this.t.kind[this.p];
    return k !== T_INDENT && !(k === T_NAME && CLAUSE_WORDS.has(this.t.text[this.p]!));
  }

  private stmt(out: Stmt[]): void {
    const t = this.t;
    const k = t.kind[this.p];
    if (k === T_NAME) {
      const w = t.text[this.p]!;
      switch (w) {
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
        case 'elif':
        case 'else':
          this.fail(X_STMT);
          break;
        default:
          if (COMPOUND_UNSUPPORTED.has(w)) {
            this.unsupportedCompound();
            return;
          }
      }
    } else if (k === T_OP && t.text[this.p] === '@') {
      this.unsupportedCompound();
      return;
    } else if (k === T_INDENT || k === T_DEDENT || k === T_NEWLINE || k === T_END) this.fail(X_STMT);
    this.simpleStmts(out);
  }

  /** `try:`, `def ...:`, `@decorator`, ...: the line and its indented block read, then reported. */
  private unsupportedCompound(): void {
    const t = this.t;
    const a = t.start[this.p]!;
    const word = t.text[this.p]!;
    while (t.kind[this.p] !== T_NEWLINE && t.kind[this.p] !== T_END) this.p++;
    if (t.kind[this.p] !== T_NEWLINE) this.fail(X_EOL);
    const end = t.start[this.p]!;
    this.p++;
    if (t.kind[this.p] === T_INDENT) {
      // (Its block, whatever it holds.)
      let d = 0;
      do {
        const k = t.kind[this.p];
        if (k === T_INDENT) d++;
        else if (k === T_DEDENT) d--;
        else if (k === T_END) this.fail(X_DEDENT);
        this.p++;
      } while (d > 0);
    }
    this.st.report.unsupported(
      this.span(a, end),
      `${UNSUPPORTED_STMT[word] ?? `'${word}' statements`} are not supported inside a @pl.program`,
    );
  }

  /** Grammar `SimpleStmts`: small statements separated by ';', ending the line. */
  protected simpleStmts(out: Stmt[]): void {
    for (;;) {
      out.push(this.smallStmt());
      if (!this.isOp(';')) break;
      this.p++;
      if (this.t.kind[this.p] === T_NEWLINE) break;
      this.note(X_EOL);
    }
    if (this.t.kind[this.p] !== T_NEWLINE) this.fail(X_EOL);
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
        if (!this.startsExpr()) {
          this.note(this.ifSpaced(X_EXPR));
          return { kind: 'Return', value: null, start: this.os(a), end: this.oe(t.end[p]!) };
        }
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
      if (SIMPLE_UNSUPPORTED.has(w)) {
        while (t.kind[this.p] !== T_NEWLINE && t.kind[this.p] !== T_END) this.p++;
        return this.st.report.unsupported(
          this.span(a, t.start[this.p]!),
          `${UNSUPPORTED_STMT[w] ?? `'${w}' statements`} are not supported inside a @pl.program`,
        );
      }
      if (!this.startsExpr()) this.fail(X_STMT);
    } else if (!this.startsExpr()) this.fail(X_STMT);
    const target = this.exprList();
    if (this.isOp('=')) {
      this.p++;
      const value = this.exprList();
      if (this.isOp('=')) {
        let end = value.end;
        while (this.isOp('=')) {
          this.p++;
          end = this.exprList().end;
        }
        return this.unsupported(a, end, 'chained assignments (a = b = c)');
      }
      return makeAssign(this.bctx, target.e, value.e, null, this.span(a, value.end));
    }
    if (this.isOp(':')) {
      this.p++;
      const ann = this.expr();
      if (!this.isOp('=')) return this.unsupported(a, ann.end, 'an annotation without a value');
      this.p++;
      const value = this.exprList();
      return makeAssign(this.bctx, target.e, value.e, ann.e, this.span(a, value.end));
    }
    if (t.kind[this.p] === T_OP && AUG_OPS.has(t.text[this.p]!)) {
      const op = t.text[this.p++]!;
      const value = this.exprList();
      return this.st.report.unsupported(
        this.span(a, value.end),
        `augmented assignment '${op}' is not supported; write x = x ${op.slice(0, -1)} ...`,
      );
    }
    return { kind: 'ExprStmt', value: target.e, start: this.os(a), end: this.oe(target.end) };
  }

  /** Grammar `Suite`: an indented block (its statements guarded), or simple statements on the header's line. */
  private suite(): Stmt[] {
    const out: Stmt[] = [];
    if (this.t.kind[this.p] !== T_NEWLINE) {
      this.note(X_EOL);
      this.simpleStmts(out);
      return out;
    }
    this.p++;
    if (this.t.kind[this.p] !== T_INDENT) this.fail(X_BLOCK);
    this.p++;
    do this.guardedStmt(out);
    while (this.t.kind[this.p] !== T_DEDENT && this.t.kind[this.p] !== T_END);
    if (this.t.kind[this.p] !== T_DEDENT) this.fail(X_DEDENT);
    this.p++;
    return exact(out);
  }

  protected condHead(kind: 'if' | 'elif' | 'while'): Head {
    const a = this.t.start[this.p++]!;
    const cond = this.expr().e;
    const span = this.span(a, this.expectOp(':', kind === 'if' ? X_COLON_IF : kind === 'elif' ? X_COLON_ELIF : X_COLON_WHILE));
    return { kind, cond, start: span.start, span };
  }

  protected elseHead(): Head {
    const a = this.t.start[this.p++]!;
    const span = this.span(a, this.expectOp(':', X_COLON_ELSE));
    return { kind: 'else', start: span.start, span };
  }

  /** An `else:` clause after a loop, or null. */
  private elseClause(): Clause | null {
    if (!this.isWord('else')) return null;
    const head = this.elseHead();
    return { head, body: this.suite() };
  }

  /** Throws SKIPPED when errors were recorded since there were `n` (the statement is not built). */
  private built(n: number): void {
    if (this.faults.length > n) throw SKIPPED;
  }

  private ifStmt(): Stmt {
    const n = this.faults.length;
    const clauses: Clause[] = [];
    const head = this.condHead('if');
    clauses.push({ head, body: this.suite() });
    while (this.isWord('elif')) {
      const h = this.condHead('elif');
      clauses.push({ head: h, body: this.suite() });
    }
    const els = this.elseClause();
    if (els) clauses.push(els);
    this.built(n);
    return makeIf(this.bctx, clauses);
  }

  private whileStmt(): Stmt {
    const n = this.faults.length;
    const head = this.condHead('while');
    const body = this.suite();
    const els = this.elseClause();
    this.built(n);
    return makeWhile(this.bctx, { head, body }, els);
  }

  private forStmt(): Stmt {
    const n = this.faults.length;
    const head = this.forHead();
    const body = this.suite();
    const els = this.elseClause();
    this.built(n);
    return makeFor(this.bctx, { head, body }, els);
  }

  private withStmt(): Stmt {
    const n = this.faults.length;
    const head = this.withHead();
    const body = this.suite();
    this.built(n);
    return makeWith(this.bctx, { head, body });
  }

  protected forHead(): Head {
    const a = this.t.start[this.p++]!;
    const target = this.targetList().e;
    if (!this.isWord('in')) this.fail(X_IN | this.ifSpaced(X_COMMA));
    this.p++;
    const iter = this.exprList().e;
    const span = this.span(a, this.expectOp(':', X_COLON_FOR | this.ifSpaced(X_COMMA)));
    return { kind: 'for', target, iter, start: span.start, span };
  }

  protected withHead(): Head {
    const a = this.t.start[this.p++]!;
    const items: Extract<Head, { kind: 'with' }>['items'] = [];
    let asName: NameExpr | null = null;
    for (;;) {
      const x = this.expr();
      asName = null;
      let end = x.end;
      if (this.isWord('as')) {
        this.p++;
        const target = this.targetItem();
        if (target.e.kind !== 'Name') this.st.report.unsupported(target.e, "the target of 'as' must be a single name");
        asName = target.e as NameExpr;
        end = target.end;
      }
      items.push({ expr: x.e, asName, span: this.span(x.start, end) });
      if (!this.isOp(',')) break;
      this.p++;
    }
    const span = this.span(a, this.expectOp(':', X_COLON_WITH | this.ifSpaced(asName === null ? X_COMMA | X_AS : X_COMMA)));
    return { kind: 'with', items, start: span.start, span };
  }
}
