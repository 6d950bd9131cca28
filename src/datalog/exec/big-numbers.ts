// Whether a clause holds a number literal a double cannot hold exactly: its join plan then holds
// a box of one database's table (eval.ts does not memoise it across databases).
import { type Clause, type Literal, operands, type Term } from '../syntax/ast.js';

/** The integers a double holds exactly, as bigints. */
const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether a number literal of clause `c` (head, body, aggregates) lies beyond ±(2^53 - 1). */
export function hasBigNumber(c: Clause): boolean {
  return c.head.args.some(bigTerm) || c.body.some(bigLiteral);
}

function bigLiteral(l: Literal): boolean {
  return l.kind === 'cmp' ? bigTerm(l.left) || bigTerm(l.right) : l.atom.args.some(bigTerm);
}

// (By the terms' types, not every object of the clause: a walk of its locations cost an audit ~15 ms.)
function bigTerm(t: Term): boolean {
  switch (t.kind) {
    case 'num':
      return typeof t.value === 'bigint' && (t.value < -SAFE_BIG || t.value > SAFE_BIG);
    case 'agg':
      return (t.target !== null && bigTerm(t.target)) || t.body.some(bigLiteral);
    default:
      return operands(t).some(bigTerm);
  }
}
