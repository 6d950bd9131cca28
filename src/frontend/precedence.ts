/**
 * Python operator precedence over a flat operand/operator chain (`a + b * -c`): the DSL
 * parser reads binary operators flat and builds the tree here, reporting unsupported operators.
 */
import { BINARY_OPS, type BinaryOp, type Expr, type Span, type UnaryOp } from '../ir/nodes.js';
import type { Reporter } from './build.js';

const BIN_PREC: Record<string, number> = {
  or: 1,
  and: 2,
  '==': 4,
  '!=': 4,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  in: 4,
  'not in': 4,
  is: 4,
  'is not': 4,
  '|': 5,
  '^': 6,
  '&': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '//': 10,
  '%': 10,
  '@': 10,
  '**': 12,
};
const PREFIX_PREC: Record<string, number> = { not: 3, '-': 11, '+': 11, '~': 11, await: 13 };
const COMPARISON = new Set(['==', '!=', '<', '<=', '>', '>=']);
const SUPPORTED_BIN = new Set<string>(BINARY_OPS);

/** One operand of a chain: its prefix operators, its primary expression and its extent. */
export interface OperandTok {
  prefixes: { op: string; span: Span }[];
  primary: Expr;
  /** Extent of the primary including any parentheses. */
  start: number;
  end: number;
}
/** One binary operator of a chain (`not in` / `is not` with one space). */
export interface OpTok {
  op: string;
  span: Span;
}
interface Parsed {
  e: Expr;
  start: number;
  end: number;
}

/**
 * Python's compiler raises RecursionError for an expression nested about 3,000 levels deep
 * (`a + a + ... + a` with 2,993 terms compiles, 2,994 does not); deeper ones are reported
 * here, so every later stage sees at most this depth.
 */
export const MAX_EXPR_DEPTH = 2_990;

/** Depth of the operator nodes (Binary, Unary) on top of `e`, without recursion. */
function operatorDepth(e: Expr): number {
  let best = 1;
  const work: [Expr, number][] = [[e, 1]];
  while (work.length > 0) {
    const [x, d] = work.pop()!;
    if (d > best) best = d;
    if (x.kind === 'Binary') work.push([x.left, d + 1], [x.right, d + 1]);
    else if (x.kind === 'Unary') work.push([x.operand, d + 1]);
  }
  return best;
}

/** The expression tree of a flat chain `operands[0] ops[0] operands[1] ...`; unsupported operators are reported. */
export function precedence(operands: OperandTok[], ops: OpTok[], report: Reporter): Expr {
  if (ops.length + operands.reduce((n, o) => n + o.prefixes.length, 0) + 1 >= MAX_EXPR_DEPTH / 2) {
    // Only long chains can be too deep: measure them (their operands may be nested chains).
    const depths = new Map<Expr, number>();
    const depth = (x: Expr): number => depths.get(x) ?? (x.kind === 'Binary' || x.kind === 'Unary' ? operatorDepth(x) : 1);
    const e = precedenceOf(operands, ops, report, (x, parts) => {
      const d = 1 + Math.max(...parts.map(depth));
      if (d > MAX_EXPR_DEPTH) {
        report.syntax(
          x,
          `this expression is nested more than ${MAX_EXPR_DEPTH} levels deep; Python's compiler rejects it (RecursionError): split it into several assignments`,
        );
      }
      depths.set(x, d);
    });
    return e;
  }
  return precedenceOf(operands, ops, report, null);
}

function precedenceOf(operands: OperandTok[], ops: OpTok[], report: Reporter, built: ((e: Expr, parts: Expr[]) => void) | null): Expr {
  let k = 0; // next operand
  let pi = 0; // next prefix of operands[k]
  let oi = 0; // next operator
  const chained = new Set<Expr>();

  const unary = (): Parsed => {
    const o = operands[k]!;
    if (pi < o.prefixes.length) {
      const pre = o.prefixes[pi++]!;
      const inner = expr(PREFIX_PREC[pre.op]!);
      if (pre.op === '+' || pre.op === 'await') {
        report.unsupported(
          pre.span,
          pre.op === '+' ? "unary '+' is not supported inside a @pl.program" : "'await' is not supported inside a @pl.program",
        );
      }
      const start = pre.span.start;
      const u: Expr = { kind: 'Unary', op: pre.op as UnaryOp, operand: inner.e, start, end: inner.end };
      if (built) built(u, [inner.e]);
      return { e: u, start, end: inner.end };
    }
    k++;
    pi = 0;
    return { e: o.primary, start: o.start, end: o.end };
  };

  const expr = (minPrec: number): Parsed => {
    let left = unary();
    while (oi < ops.length) {
      const op = ops[oi]!;
      const p = BIN_PREC[op.op]!;
      if (p < minPrec) break;
      oi++;
      const right = expr(op.op === '**' ? p : p + 1);
      if (!SUPPORTED_BIN.has(op.op)) {
        report.unsupported(op.span, `the '${op.op}' operator is not supported inside a @pl.program`);
      }
      if (COMPARISON.has(op.op) && chained.has(left.e)) {
        report.unsupported({ start: left.start, end: right.end }, 'chained comparisons are not supported; combine them with and');
      }
      const e: Expr = { kind: 'Binary', op: op.op as BinaryOp, left: left.e, right: right.e, start: left.start, end: right.end };
      if (built) built(e, [left.e, right.e]);
      if (COMPARISON.has(op.op)) chained.add(e);
      left = { e, start: left.start, end: right.end };
    }
    return left;
  };
  return expr(0).e;
}
