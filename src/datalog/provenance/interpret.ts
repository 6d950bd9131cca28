// Executes a join plan step by step (no code generation), for provenance and why-not queries.
// Recursion depth is the plan length; every relation is read in full.
import { arith, compareEncoded } from '../check/consts.js';
import type { FunctorRuntime } from '../check/functors.js';
import type { Expr, Plan, Step } from '../plan/plan.js';
import type { Relation } from '../storage/relation.js';

/** Evaluates an expression over slot values; null when it has no value (division by zero...). */
export function evalExpr(e: Expr, slots: Float64Array, fns: FunctorRuntime): number | null {
  switch (e.k) {
    case 'slot':
      return slots[e.s]!;
    case 'const':
      return e.v;
    case 'neg': {
      const a = evalExpr(e.a, slots, fns);
      return a === null ? null : fns.num.neg(a);
    }
    case 'bin': {
      const l = evalExpr(e.l, slots, fns);
      const r = evalExpr(e.r, slots, fns);
      return l === null || r === null ? null : arith(e.op, l, r, fns.num);
    }
    case 'call': {
      const args: number[] = [];
      for (const a of e.args) {
        const v = evalExpr(a, slots, fns);
        if (v === null) return null;
        args.push(v);
      }
      return fns.apply(e.fn, args);
    }
  }
}

export interface InterpretOptions {
  /** Relation of each access of the plan. */
  rels: readonly Relation[];
  /** Initial slot values (prebound variables set). */
  slots: Float64Array;
  /** Which rows of a positive scan may be used (provenance: smaller height). */
  rowOk?: (k: number, row: number) => boolean;
  /** Functors over the symbol table of the relations. */
  fns: FunctorRuntime;
  /** Called for each solution of the top-level steps; return false to stop. */
  onMatch: (slots: Float64Array, rows: Int32Array) => boolean;
}

/** Runs `plan` (its steps, not its head) and reports every solution until onMatch returns false. */
export function interpret(plan: Plan, opts: InterpretOptions): void {
  const rows = new Int32Array(plan.accesses.length).fill(-1);
  const slots = opts.slots;
  const rowOk = opts.rowOk ?? (() => true);
  const fns = opts.fns;
  const ev = (e: Expr): number | null => evalExpr(e, slots, fns);
  let stopped = false;

  const run = (steps: readonly Step[], i: number, leaf: () => void): void => {
    if (stopped) return;
    if (i === steps.length) {
      leaf();
      return;
    }
    const step = steps[i]!;
    const next = (): void => run(steps, i + 1, leaf);
    switch (step.op) {
      case 'filter': {
        const l = ev(step.l);
        const r = ev(step.r);
        if (l === null || r === null) return;
        const holds =
          step.cmp === 'contains' || step.cmp === '!contains'
            ? fns.contains(l, r) === (step.cmp === 'contains')
            : step.cmp === 'match' || step.cmp === '!match'
              ? fns.match(fns.str[l]!, fns.str[r]!) === (step.cmp === 'match')
              : compareEncoded(step.cmp, l, r, fns.num, fns.str);
        if (holds) next();
        return;
      }
      case 'assign': {
        const v = ev(step.e);
        if (v === null) return;
        slots[step.slot] = v;
        next();
        return;
      }
      case 'neg': {
        const rel = opts.rels[step.k]!;
        const vals: (number | null)[] = step.args.map((a) => (a ? ev(a) : null));
        if (step.args.some((a, j) => a && vals[j] === null)) return;
        if (step.keyCols.length === rel.arity) {
          if (rel.arity > 0 && rel.find(vals as number[]) !== -1) return;
          if (rel.arity === 0 && rel.count > 0) return;
        } else if (step.keyCols.length > 0) {
          const ix = rel.index(step.keyCols);
          ix.ensure(rel.count);
          if (ix.findN(step.keyCols.map((c) => vals[c]!)) !== -1) return;
        } else if (rel.count > 0) return;
        next();
        return;
      }
      case 'agg': {
        let acc = 0;
        let found = false;
        run(step.body, 0, () => {
          if (step.aggOp === 'count') acc = acc + 1;
          else {
            const t = ev(step.target!);
            if (t === null) return;
            if (step.aggOp === 'sum') acc = fns.num.add(acc, t);
            else if (!found || (step.aggOp === 'min' ? fns.num.lt(t, acc) : fns.num.lt(acc, t))) acc = t;
            found = true;
          }
        });
        if (stopped) return;
        if (step.aggOp === 'min' || step.aggOp === 'max') if (!found) return;
        slots[step.slot] = acc;
        next();
        return;
      }
      case 'scan': {
        const rel = opts.rels[step.k]!;
        const a = rel.arity;
        const keys: number[] = [];
        for (const c of step.cols) {
          if (c.t !== 'key') continue;
          const v = ev(c.e);
          if (v === null) return;
          keys.push(v);
        }
        const visit = (r: number): void => {
          if (!rowOk(step.k, r)) return;
          const b = r * a;
          let kc = 0;
          for (let c = 0; c < a; c++) {
            const spec = step.cols[c]!;
            const v = rel.data[b + c]!;
            if (spec.t === 'key' && v !== keys[kc++]) return;
          }
          for (let c = 0; c < a; c++) {
            const spec = step.cols[c]!;
            if (spec.t === 'bind') slots[spec.slot] = rel.data[b + c]!;
          }
          for (let c = 0; c < a; c++) {
            const spec = step.cols[c]!;
            if (spec.t === 'check' && rel.data[b + c] !== slots[spec.slot]) return;
          }
          rows[step.k] = r;
          next();
        };
        if (step.keyCols.length > 0 && step.keyCols.length < a) {
          const ix = rel.index(step.keyCols);
          ix.ensure(rel.count);
          for (let r = ix.findN(keys); r !== -1 && !stopped; r = ix.nextRow(r)) visit(r);
        } else if (step.keyCols.length === a && a > 0) {
          const r = rel.find(keys);
          if (r !== -1) visit(r);
        } else for (let r = 0; r < rel.count && !stopped; r++) visit(r);
        return;
      }
    }
  };
  run(plan.steps, 0, () => {
    if (!opts.onMatch(slots, rows)) stopped = true;
  });
}
