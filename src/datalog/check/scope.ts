// Soufflé's variable scoping of aggregates: a variable of an aggregate body that also occurs
// outside it is the outer variable; any other is local and renamed `X@n` (unique per clause).
import { type Clause, type Literal, mapOperands, operands, type Term } from '../syntax/ast.js';

/** The display name of a possibly renamed variable (`X@2` → `X`). */
export function displayName(v: string): string {
  const at = v.indexOf('@');
  return at < 0 ? v : v.slice(0, at);
}

function shallowTermVars(t: Term, out: Set<string>): void {
  if (t.kind === 'var') out.add(t.name);
  else for (const x of operands(t)) shallowTermVars(x, out);
}

function shallowLiteralVars(l: Literal, out: Set<string>): void {
  if (l.kind === 'cmp') {
    shallowTermVars(l.left, out);
    shallowTermVars(l.right, out);
  } else for (const a of l.atom.args) shallowTermVars(a, out);
}

/** A copy of `c` where every aggregate-local variable has a unique name. */
export function scopeClause(c: Clause): Clause {
  let counter = 0;
  const outer = new Set<string>();
  for (const a of c.head.args) shallowTermVars(a, outer);
  for (const l of c.body) shallowLiteralVars(l, outer);

  const renameTerm = (t: Term, scope: Set<string>, map: Map<string, string>): Term => {
    switch (t.kind) {
      case 'var': {
        const n = map.get(t.name);
        return n ? { ...t, name: n } : t;
      }
      case 'bin':
      case 'neg':
      case 'call':
        return mapOperands(t, (x) => renameTerm(x, scope, map));
      case 'agg': {
        const own = new Set<string>();
        if (t.target) shallowTermVars(t.target, own);
        for (const l of t.body) shallowLiteralVars(l, own);
        const inner = new Map(map);
        const innerScope = new Set(scope);
        const id = ++counter;
        const locals: string[] = [];
        for (const v of own) {
          if (!scope.has(v)) {
            inner.set(v, `${v}@${id}`);
            locals.push(`${v}@${id}`);
          }
          innerScope.add(v);
        }
        return {
          ...t,
          locals,
          target: t.target ? renameTerm(t.target, innerScope, inner) : null,
          body: t.body.map((l) => renameLit(l, innerScope, inner)),
        };
      }
      default:
        return t;
    }
  };
  const renameLit = (l: Literal, scope: Set<string>, map: Map<string, string>): Literal => {
    if (l.kind === 'cmp') return { ...l, left: renameTerm(l.left, scope, map), right: renameTerm(l.right, scope, map) };
    return { ...l, atom: { ...l.atom, args: l.atom.args.map((a) => renameTerm(a, scope, map)) } };
  };
  const empty = new Map<string, string>();
  const body = c.body.map((l) => renameLit(l, outer, empty));
  // A head argument with an aggregate (`count : {...}`, `to_string(count : {...})`) becomes a
  // fresh variable bound by an equality in the body.
  const hasAgg = (t: Term): boolean => t.kind === 'agg' || operands(t).some(hasAgg);
  const headArgs = c.head.args.map((a, i) => {
    const t = renameTerm(a, outer, empty);
    if (!hasAgg(t)) return t;
    const v: Term = { kind: 'var', name: `$head${i}`, loc: t.loc };
    body.push({ kind: 'cmp', op: '=', left: v, right: t, loc: t.loc });
    return v;
  });
  // (A fact with an aggregate, `n(count : r(_)).`, is a rule once it has that equality.)
  return { ...c, head: { ...c.head, args: headArgs }, body, isFact: c.isFact && body.length === 0 };
}
