// Signed 32-bit arithmetic and comparison with Soufflé's semantics (division truncates toward
// zero, `%` like C); division or remainder by zero makes the rule instance fail (null).
import type { ArithOp, CmpOp } from './ast.js';
import { regexMatch } from './functors.js';

/** `l op r` on 32-bit signed integers, or null for a division by zero. */
export function arith(op: ArithOp, l: number, r: number): number | null {
  switch (op) {
    case '+':
      return (l + r) | 0;
    case '-':
      return (l - r) | 0;
    case '*':
      return Math.imul(l, r);
    case '/':
      return r === 0 ? null : (l / r) | 0;
    case '%':
      return r === 0 ? null : (l % r) | 0;
  }
}

/** `l op r` for two decoded values of the same kind (`contains` on strings). */
export function compare(op: CmpOp, l: number | string, r: number | string): boolean {
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
