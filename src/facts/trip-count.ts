import { evalConst } from '../ir/consts.js';
import type { ConstValue, ForStmt } from '../ir/nodes.js';

/**
 * The constant trip count of a range-like loop, or undefined when a bound is not constant.
 * Direction-aware: `range(5, 0, -1)` runs 5 times; step 0 and empty ranges give 0.
 *   range(start, stop, step): step > 0 → max(0, ceil((stop - start) / step))
 *                             step < 0 → max(0, ceil((start - stop) / -step))
 * As a rule over the facts (Soufflé's `/` truncates toward zero):
 *   trip_count(L, N) :- loop_bound(L, "start", A), const_value(A, S0), loop_bound(L, "stop", B),
 *       const_value(B, S1), loop_bound(L, "step", C), const_value(C, D), D > 0,
 *       N = max(0, (S1 - S0 + D - 1) / D).            (and the mirror clause for D < 0, 0 for D = 0)
 */
export function tripCount(loop: ForStmt, constants: ReadonlyMap<string, ConstValue>): number | undefined {
  if (loop.loopKind === 'while' || loop.loopKind === 'spmd' || loop.loopKind === 'split_aiv') return undefined;
  const [startE, stopE, stepE] = loop.args;
  if (!startE || !stopE || !stepE) return undefined;
  const start = evalConst(startE, constants);
  const stop = evalConst(stopE, constants);
  const step = evalConst(stepE, constants);
  if (start === undefined || stop === undefined || step === undefined) return undefined;
  if (step === 0) return 0;
  const n = step > 0 ? Math.ceil((stop - start) / step) : Math.ceil((start - stop) / -step);
  return Math.max(0, n);
}
