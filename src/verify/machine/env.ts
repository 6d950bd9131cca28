/**
 * Which tensor each name of a function denotes (flow-insensitive): parameters are their own
 * tensors; `y = x`, a local write's result (`w2 = pl.store(t, o, w)`) and a loop iter-arg
 * alias the tensor they come from; a name bound to two different tensors is ambiguous.
 */
import type { Expr, FunctionDef, Stmt, TypeExpr } from '../../ir/nodes.js';
import { walkStmts } from '../../ir/visit.js';
import { effectOf } from './effects.js';

/** A tensor the machine tracks: its root name, and whether peers can see it (window-bound). */
export interface TensorRoot {
  root: string;
  window: boolean;
}

/** name → tensor, or 'ambiguous'. */
export type Env = ReadonlyMap<string, TensorRoot | 'ambiguous'>;

const isWindow = (t: TypeExpr | null): boolean => t !== null && t.kind === 'TensorType' && t.distributed;

/** The tensor each name of `f` denotes. */
export function functionEnv(f: FunctionDef): Env {
  const env = new Map<string, TensorRoot | 'ambiguous'>();
  for (const p of f.params) env.set(p.name, { root: p.name, window: isWindow(p.type) });
  const bind = (name: string, r: TensorRoot | 'ambiguous'): void => {
    const old = env.get(name);
    if (old === undefined) env.set(name, r);
    else if (old === 'ambiguous' || r === 'ambiguous' || old.root !== r.root) env.set(name, 'ambiguous');
  };
  const rootOf = (e: Expr): TensorRoot | 'ambiguous' | undefined => {
    if (e.kind === 'Name') return env.get(e.id);
    if (e.kind === 'Call') {
      const eff = effectOf(e);
      if (eff.kind === 'local-write' && eff.dst.kind === 'Name') return env.get(eff.dst.id);
    }
    return undefined;
  };
  walkStmts(f.body, (s: Stmt) => {
    if (s.kind === 'Assign' && s.targets.length === 1) {
      const t = s.targets[0]!.id;
      const r = rootOf(s.value);
      bind(t, r ?? { root: t, window: isWindow(s.annotation) });
    } else if (s.kind === 'For') {
      s.iterArgs.forEach((a, i) => {
        const init = s.initValues[i];
        const r = init ? rootOf(init) : undefined;
        bind(a.id, r ?? { root: a.id, window: false });
      });
    }
  });
  return env;
}
