/**
 * The DSL parser's entry: reads a piece of pre-tokenized text (layout.ts) as one of the
 * grammar's start rules — `Chunk` (statements), `FuncHeader`, `ProgramHeader`, `ClauseHeader`
 * (the header lines program.ts parses apart from their bodies), `ExprItem` (one expression),
 * `ConstRhs` (a module constant's value) — into IR. The layers: hand-tokens.ts (tokens),
 * hand-cursor.ts (token tests, spans, the syntax-error record), hand-expr.ts (expressions),
 * hand-stmt.ts (statements, error recovery), and the headers here.
 */

import type { Stmt } from '../ir/nodes.js';
import { DiagnosticError } from '../report/diagnostic.js';
import type { DecoratorDesc, DefHeadDesc, Head, RawParam } from './build.js';
import {
  type HandState,
  SYNTAX,
  X_ARROW,
  X_CLASS,
  X_COLON,
  X_COLON_CLASS,
  X_COLON_DEF,
  X_COMMA,
  X_DEF,
  X_END,
  X_EOL,
  X_LPAREN,
  X_NAME,
  X_RPAREN,
  X_STMT,
} from './hand-cursor.js';
import type { Ext } from './hand-expr.js';
import { type Fault, StmtParser } from './hand-stmt.js';
import { KEYWORDS, T_END, T_NAME, T_NEWLINE, tokenize } from './hand-tokens.js';
import type { Chunk } from './layout.js';

/** The start rules the parser reads. */
export type Rule = 'Chunk' | 'FuncHeader' | 'ProgramHeader' | 'ClauseHeader' | 'ExprItem' | 'ConstRhs';

/** Thrown when a piece has errors: each syntax error or builder diagnostic, in source order. */
export class ParseFailure extends Error {
  constructor(
    readonly faults: readonly Fault[],
    /** The piece that was read (syntax errors are located in it). */
    readonly chunk: Chunk,
  ) {
    super('the piece has errors');
  }
}

/** The parser of headers on top of the statement parser. */
class DslParser extends StmtParser {
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
        return this.fail(X_STMT);
    }
    return { head, inline: this.clauseRest() };
  }

  /** Grammar `Decorator`: `@ expr` and its line end. */
  private decorator(): DecoratorDesc {
    const a = this.t.start[this.p]!;
    this.p++;
    const x = this.expr();
    if (this.t.kind[this.p] !== T_NEWLINE) this.fail(X_EOL);
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
    if (decorators.length === 0 || !this.isWord('class')) this.fail(X_CLASS);
    this.p++;
    const name = this.ident();
    if (this.isOp('(')) {
      this.p++;
      this.argList();
      this.expectOp(')', X_RPAREN | X_COMMA);
    }
    this.expectOp(':', X_COLON_CLASS);
    if (this.t.kind[this.p] !== T_NEWLINE) this.fail(X_EOL);
    this.p++;
    return { decorators, name };
  }

  /** Grammar `FuncHeader`: the decorators and `def` line of a function (and its body when on the same line). */
  funcHeader(): { decorators: DecoratorDesc[]; head: DefHeadDesc; inline: Stmt[] | null } {
    const decorators = this.decorators();
    if (!this.isWord('def')) this.fail(X_DEF);
    const a = this.t.start[this.p++]!;
    const name = this.ident();
    const lp = this.t.start[this.p]!;
    this.expectOp('(', X_LPAREN);
    const params: RawParam[] = [];
    let bare = false; // the last parameter has no annotation (a ':' could follow it)
    while (!this.isOp(')')) {
      const param = this.param();
      if (param) params.push(param);
      bare = param !== null && param.annotation === null;
      if (!this.isOp(',')) break;
      this.p++;
      bare = false;
    }
    const rp = this.expectOp(')', X_RPAREN | this.ifSpaced(X_COMMA | (bare ? X_COLON : 0)));
    let returns: Ext | null = null;
    if (this.isOp('->')) {
      this.p++;
      returns = this.expr();
    }
    const span = this.span(a, this.expectOp(':', returns ? X_COLON_DEF : X_COLON_DEF | this.ifSpaced(X_ARROW)));
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

  /** Grammar `Param`: `name: annotation`; `*args`, `**kw`, `/` and defaults are reported. */
  private param(): RawParam | null {
    const t = this.t;
    const q = this.p;
    const a = t.start[q]!;
    if (this.isOp('**') || this.isOp('*')) {
      const double = this.isOp('**');
      this.p++;
      let end = t.end[q]!;
      if (double || t.kind[this.p] === T_NAME) {
        this.ident();
        end = t.end[this.p - 1]!;
      }
      return this.unsupported(a, end, double ? "'**' parameters" : "'*' parameters");
    }
    if (this.isOp('/')) {
      this.p++;
      return this.unsupported(a, t.end[q]!, "'/' parameters");
    }
    if (t.kind[q] !== T_NAME || KEYWORDS.has(t.text[q]!)) this.fail(X_RPAREN | this.ifSpaced(X_NAME));
    const pname = this.ident();
    const nameSpan = this.span(a, t.end[q]!);
    let annotation: Ext | null = null;
    if (this.isOp(':')) {
      this.p++;
      annotation = this.expr();
    }
    if (this.isOp('=')) {
      const d = t.start[this.p++]!;
      const v = this.expr();
      this.unsupported(d, v.end, 'default parameter values');
    }
    return {
      name: pname,
      nameSpan,
      annotation: annotation ? annotation.e : null,
      span: this.span(a, annotation ? annotation.end : t.end[q]!),
    };
  }

  /** Reads the whole piece as `rule`. */
  read(rule: Rule): unknown {
    switch (rule) {
      case 'Chunk':
        return this.chunk();
      case 'FuncHeader':
        return this.funcHeader();
      case 'ProgramHeader':
        return this.programHeader();
      case 'ClauseHeader':
        return this.clauseHeader();
      case 'ExprItem':
        return this.expr().e;
      default:
        return this.exprList().e;
    }
  }

  /** Fails unless the whole piece was read. */
  end(): void {
    if (this.t.kind[this.p] !== T_END) this.fail(X_END | X_EOL);
  }

  /** The syntax error of the whole piece read as `rule` with reports that do not stop the parse, or null. */
  syntaxOf(rule: Rule): Fault | null {
    return this.syntaxIn(0, () => {
      this.read(rule);
      this.end();
    });
  }

  /** The syntax error recorded (after SYNTAX was thrown). */
  fault(): Fault {
    return this.takeFault();
  }
}

/**
 * The IR of `chunk` read as start rule `rule`. Throws ParseFailure with every error found (a
 * `Chunk` goes on after a statement with an error), or the first DiagnosticError of a header
 * or expression; a RangeError when the text nests deeper than the stack allows.
 */
export function parseRule<T>(chunk: Chunk, rule: Rule, state: Omit<HandState, 'map'>): T {
  const toks = tokenize(chunk.out, state.pool, state.tokens);
  // One object shape for every chunk's state (a spread of differently built states would not be).
  const st: HandState = {
    map: chunk.map,
    report: state.report,
    constants: state.constants,
    names: state.names,
    jitFuncs: state.jitFuncs,
    ellipsisOk: state.ellipsisOk,
    pool: state.pool,
    tokens: state.tokens,
  };
  const parser = new DslParser(chunk.out, toks, st);
  let r: unknown;
  try {
    r = parser.read(rule);
    parser.end();
  } catch (e) {
    if (e === SYNTAX) throw new ParseFailure([...parser.faults, parser.fault()], chunk);
    // A header's syntax error is reported before what a builder reports in it.
    const f = e instanceof DiagnosticError ? parser.syntaxOf(rule) : null;
    if (f) throw new ParseFailure([f], chunk);
    throw e;
  }
  if (parser.faults.length > 0) throw new ParseFailure(parser.faults, chunk);
  return r as T;
}
