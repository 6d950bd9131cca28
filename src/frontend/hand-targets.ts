/**
 * Assignment targets of the DSL parser (`for` and comprehension targets, `with ... as`):
 * names, and parenthesised or bracketed lists of targets.
 */

import type { Expr } from '../ir/nodes.js';
import { Cursor, X_COMMA, X_NAME, X_RBRACKET, X_RPAREN } from './hand-cursor.js';
import { KEYWORDS, T_KWNAME, T_NAME, T_OP } from './hand-tokens.js';

/** An expression and the extent (chunk offsets) of the text it was read from, parentheses included. */
export interface Ext {
  e: Expr;
  start: number;
  end: number;
}

/** Reader of assignment targets over the token cursor. */
export class TargetParser extends Cursor {
  /** Grammar `TargetList`: names, parenthesised or bracketed target lists (a Tuple when several). */
  protected targetList(): Ext {
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
    const k = this.t.kind[this.p];
    return (k === T_NAME && !KEYWORDS.has(this.t.text[this.p]!)) || k === T_KWNAME || this.isOp('(') || this.isOp('[');
  }

  /** Grammar `TargetItem`: a name, or a parenthesised or bracketed target list. */
  protected targetItem(): Ext {
    const t = this.t;
    const p = this.p;
    const a = t.start[p]!;
    if (t.kind[p] === T_NAME || t.kind[p] === T_KWNAME) {
      const id = this.ident();
      return { e: { kind: 'Name', id, start: this.os(a), end: this.oe(t.end[p]!) }, start: a, end: t.end[p]! };
    }
    if (t.kind[p] !== T_OP || (t.text[p] !== '(' && t.text[p] !== '[')) this.fail(X_NAME);
    const close = t.text[p] === '(' ? ')' : ']';
    const closeMask = close === ')' ? X_RPAREN : X_RBRACKET;
    this.p++;
    if (this.isOp(close)) {
      const end = t.end[this.p++]!;
      return { e: { kind: 'Tuple', elts: [], start: this.os(a), end: this.oe(end) }, start: a, end };
    }
    const inner = this.targetList().e;
    const end = this.expectOp(close, closeMask | this.ifSpaced(X_COMMA));
    if (inner.kind === 'Tuple') return { e: { kind: 'Tuple', elts: inner.elts, start: this.os(a), end: this.oe(end) }, start: a, end };
    return { e: inner, start: a, end };
  }
}
