/**
 * Constant evaluation over the IR: integer arithmetic on literals and module constants.
 * Anything else (an unbound name, a call, a float, a division by zero, an out-of-range
 * result) is symbolic and gives `undefined`.
 */
import type { ConstValue, Expr } from './nodes.js';

function isInt(v: number): boolean {
  return Number.isSafeInteger(v);
}

function floorDiv(a: number, b: number): number | undefined {
  if (b === 0) return undefined;
  return Math.floor(a / b);
}

function pyMod(a: number, b: number): number | undefined {
  if (b === 0) return undefined;
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

/**
 * The integer value of `e`, with names looked up in `constants` (integer constants only), or
 * undefined when the expression is symbolic. Integer arithmetic: unary `-`, binary
 * `+ - * // % **` with Python semantics (floor division and modulo round towards -inf).
 */
export function evalConst(e: Expr, constants: ReadonlyMap<string, ConstValue>): number | undefined {
  switch (e.kind) {
    case 'Int':
      return isInt(e.value) ? e.value : undefined;
    case 'Name': {
      const v = constants.get(e.id);
      return typeof v === 'number' ? v : undefined;
    }
    case 'Unary': {
      if (e.op !== '-') return undefined;
      const v = evalConst(e.operand, constants);
      return v === undefined ? undefined : v === 0 ? 0 : -v;
    }
    case 'Binary': {
      const a = evalConst(e.left, constants);
      if (a === undefined) return undefined;
      const b = evalConst(e.right, constants);
      if (b === undefined) return undefined;
      let r: number | undefined;
      switch (e.op) {
        case '+':
          r = a + b;
          break;
        case '-':
          r = a - b;
          break;
        case '*':
          r = a * b;
          break;
        case '//':
          r = floorDiv(a, b);
          break;
        case '%':
          r = pyMod(a, b);
          break;
        case '**':
          r = b < 0 ? undefined : a ** b;
          break;
        default:
          r = undefined;
      }
      return r !== undefined && isInt(r) ? (r === 0 ? 0 : r) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether `e` is integer arithmetic (`- + * // % **`) on operands that evaluate whose exact result
 * is beyond ±(2⁵³ − 1) (`10**19`, `N * N` with a large `N`): evalConst reads it as unknown.
 */
export function beyondExactRange(e: Expr, constants: ReadonlyMap<string, ConstValue>): boolean {
  if (e.kind !== 'Binary') return false;
  if (!['+', '-', '*', '//', '%', '**'].includes(e.op) || evalConst(e, constants) !== undefined) return false;
  const a = evalConst(e.left, constants);
  const b = evalConst(e.right, constants);
  if (a === undefined || b === undefined) return false;
  const x = BigInt(a);
  const y = BigInt(b);
  let r: bigint;
  switch (e.op) {
    case '+':
      r = x + y;
      break;
    case '-':
      r = x - y;
      break;
    case '*':
      r = x * y;
      break;
    // Floor division and modulo of exact operands stay exact; only a zero divisor is unknown.
    case '//':
    case '%':
      return false;
    default:
      // `**` with a negative exponent is a float; a huge exponent is bounded before computing.
      if (y < 0n) return false;
      if (x === 0n || x === 1n || x === -1n) return false;
      return true;
  }
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  return r > max || r < -max;
}

/**
 * The constant value of `e`: an integer, or a (nested) list/tuple of integers; undefined when
 * any part is symbolic.
 */
export function evalConstValue(e: Expr, constants: ReadonlyMap<string, ConstValue>): ConstValue | undefined {
  if (e.kind === 'List' || e.kind === 'Tuple') {
    const out: ConstValue[] = [];
    for (const x of e.elts) {
      const v = evalConstValue(x, constants);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  if (e.kind === 'Name') {
    const v = constants.get(e.id);
    if (v !== undefined) return v;
  }
  return evalConst(e, constants);
}
