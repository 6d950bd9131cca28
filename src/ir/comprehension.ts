/**
 * `deps=` comprehensions as PyPTO reads them: `[elt for x in <iter> if <cond>]` is unrolled at
 * parse time (`ast_parser.py`, `_unroll_deps_comprehension`) into one dependency per kept
 * value of the iterable, with the loop variable replaced by that value. ptolog keeps the
 * comprehension in the IR (so `fmt` prints it as written) and unrolls it where the length
 * matters (the facts): when the iterable is a Python `range(...)` with constant bounds, a
 * list / tuple of constant integers or a module constant list, and every filter is constant
 * for each value. Otherwise its length is symbolic.
 */

import { evalConst, evalConstValue } from './consts.js';
import type { CompExpr, ConstValue, Expr } from './nodes.js';

/** More values than this: treated as symbolic (PyPTO would unroll them all; no kernel has that many dependencies). */
export const MAX_UNROLL = 4096;

function rangeValues(args: readonly Expr[], constants: ReadonlyMap<string, ConstValue>): number[] | null {
  if (args.length < 1 || args.length > 3) return null;
  const v = args.map((a) => evalConst(a, constants));
  if (v.some((x) => x === undefined)) return null;
  const [start, stop, step] = v.length === 1 ? [0, v[0]!, 1] : [v[0]!, v[1]!, v[2] ?? 1];
  if (step === 0) return null;
  const n = Math.max(0, Math.ceil((stop - start) / step));
  if (n > MAX_UNROLL) return null;
  return Array.from({ length: n }, (_, i) => start + i * step);
}

/** The values the comprehension's iterable yields, or null when they are not known. */
function iterValues(iter: Expr, constants: ReadonlyMap<string, ConstValue>): number[] | null {
  if (
    iter.kind === 'Call' &&
    iter.callee.kind === 'other' &&
    iter.callee.expr.kind === 'Name' &&
    iter.callee.expr.id === 'range' &&
    iter.kwargs.length === 0
  ) {
    return rangeValues(iter.args, constants);
  }
  if (iter.kind === 'List' || iter.kind === 'Tuple' || iter.kind === 'Name') {
    const v = evalConstValue(iter, constants);
    if (!Array.isArray(v) || v.length > MAX_UNROLL || !v.every((x) => typeof x === 'number')) return null;
    return v as number[];
  }
  return null;
}

/** Python truth of a constant condition (comparisons, and / or / not, integers), or undefined. */
function evalCond(e: Expr, constants: ReadonlyMap<string, ConstValue>): boolean | undefined {
  if (e.kind === 'Bool') return e.value;
  if (e.kind === 'Unary' && e.op === 'not') {
    const v = evalCond(e.operand, constants);
    return v === undefined ? undefined : !v;
  }
  if (e.kind === 'Binary') {
    if (e.op === 'and' || e.op === 'or') {
      const a = evalCond(e.left, constants);
      const b = evalCond(e.right, constants);
      if (a === undefined || b === undefined) return undefined;
      return e.op === 'and' ? a && b : a || b;
    }
    const cmp = ['<', '<=', '>', '>=', '==', '!='];
    if (cmp.includes(e.op)) {
      const a = evalConst(e.left, constants);
      const b = evalConst(e.right, constants);
      if (a === undefined || b === undefined) return undefined;
      switch (e.op) {
        case '<':
          return a < b;
        case '<=':
          return a <= b;
        case '>':
          return a > b;
        case '>=':
          return a >= b;
        case '==':
          return a === b;
        default:
          return a !== b;
      }
    }
  }
  const v = evalConst(e, constants);
  return v === undefined ? undefined : v !== 0;
}

/** A copy of `e` with every `Name` `name` replaced by the integer `value` (at the name's span). */
function substitute<T>(e: T, name: string, value: number): T {
  if (Array.isArray(e)) return e.map((x) => substitute(x, name, value)) as T;
  if (e === null || typeof e !== 'object') return e;
  const o = e as Record<string, unknown>;
  if (o['kind'] === 'Name' && o['id'] === name) return { kind: 'Int', value, start: o['start'], end: o['end'] } as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = substitute(v, name, value);
  return out as T;
}

/**
 * The dependencies a `deps=` comprehension stands for (PyPTO's unrolling), or null when its
 * length is not known (a symbolic bound, an iterable or filter ptolog cannot evaluate).
 */
export function unrollComprehension(c: CompExpr, constants: ReadonlyMap<string, ConstValue>): Expr[] | null {
  const values = iterValues(c.iter, constants);
  if (!values) return null;
  const out: Expr[] = [];
  for (const v of values) {
    const env = new Map(constants);
    env.set(c.target.id, v);
    let keep = true;
    for (const cond of c.conds) {
      const t = evalCond(cond, env);
      if (t === undefined) return null;
      keep &&= t;
    }
    if (keep) out.push(substitute(c.elt, c.target.id, v));
  }
  return out;
}

/** A `deps=` list with each comprehension of known length replaced by its elements (PyPTO's unrolled list). */
export function unrollDeps(deps: readonly Expr[], constants: ReadonlyMap<string, ConstValue>): Expr[] {
  const out: Expr[] = [];
  for (const d of deps) {
    const u = d.kind === 'Comp' ? unrollComprehension(d, constants) : null;
    if (u) out.push(...u);
    else out.push(d);
  }
  return out;
}
