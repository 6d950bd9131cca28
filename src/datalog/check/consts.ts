// Signed 64-bit arithmetic and comparison with Soufflé's semantics (wrapping, division truncates
// toward zero, `%` like C); division or remainder by zero makes the rule instance fail (null).

import type { ArithOp, CmpOp } from '../syntax/ast.js';
import type { Int64Table } from '../syntax/int64.js';
import { regexMatch } from './functors.js';

/** `l op r` on encoded 64-bit values (int64.ts), or null for a division by zero. */
export function arith(op: ArithOp, l: number, r: number, N: Int64Table): number | null {
  switch (op) {
    case '+':
      return N.add(l, r);
    case '-':
      return N.sub(l, r);
    case '*':
      return N.mul(l, r);
    case '/':
      return N.div(l, r);
    case '%':
      return N.mod(l, r);
  }
}

/** `l op r` for two encoded values of the same kind (symbol ids for the string constraints). */
export function compareEncoded(op: CmpOp, l: number, r: number, N: Int64Table, str: readonly (string | undefined)[]): boolean {
  switch (op) {
    case '=':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return N.lt(l, r);
    case '<=':
      return N.le(l, r);
    case '>':
      return N.lt(r, l);
    case '>=':
      return N.le(r, l);
    default:
      return compare(op, str[l]!, str[r]!);
  }
}

/** `l op r` for two decoded values of the same kind (numbers as number or bigint, canonical). */
export function compare(op: CmpOp, l: number | bigint | string, r: number | bigint | string): boolean {
  switch (op) {
    case 'contains':
      return String(r).includes(String(l));
    case '!contains':
      return !String(r).includes(String(l));
    case 'match':
      return regexMatch(String(l), String(r));
    case '!match':
      return !regexMatch(String(l), String(r));
    case '=':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return l < r;
    case '<=':
      return l <= r;
    case '>':
      return l > r;
    case '>=':
      return l >= r;
  }
}
