// Range restriction: every variable must be bound by a positive atom (or an equality from bound
// values) before it is used in the head, a negation, a comparison, arithmetic or an aggregate.
import { type Diagnostic, errorAt } from '../../report/diagnostic.js';
import { type Clause, isStringConstraint, type Literal, operands, type Term } from '../syntax/ast.js';
import { displayName } from './scope.js';

type Agg = Term & { kind: 'agg' };

/** Variables of `t` that must be bound from outside (aggregate locals excluded). */
export function freeVars(t: Term, out: Set<string> = new Set()): Set<string> {
  switch (t.kind) {
    case 'var':
      out.add(t.name);
      break;
    case 'bin':
    case 'neg':
    case 'call':
      for (const x of operands(t)) freeVars(x, out);
      break;
    case 'agg': {
      const inner = new Set<string>();
      if (t.target) freeVars(t.target, inner);
      for (const l of t.body) for (const x of literalTerms(l)) freeVars(x, inner);
      const locals = new Set(t.locals ?? []);
      for (const v of inner) if (!locals.has(v)) out.add(v);
      break;
    }
    default:
      break;
  }
  return out;
}

/** The terms of a literal (atom arguments or the two sides of a comparison). */
export function literalTerms(l: Literal): Term[] {
  return l.kind === 'cmp' ? [l.left, l.right] : l.atom.args;
}

/** The variables a body binds, given `initial`: positive atom arguments, then equalities to fixpoint. */
export function boundVars(body: readonly Literal[], initial: ReadonlySet<string>): Set<string> {
  const bound = new Set(initial);
  for (const l of body) if (l.kind === 'atom') for (const a of l.atom.args) if (a.kind === 'var') bound.add(a.name);
  let changed = true;
  const ready = (t: Term): boolean => [...freeVars(t)].every((v) => bound.has(v));
  while (changed) {
    changed = false;
    for (const l of body) {
      if (l.kind !== 'cmp' || l.op !== '=') continue;
      if (l.left.kind === 'var' && !bound.has(l.left.name) && ready(l.right)) {
        bound.add(l.left.name);
        changed = true;
      }
      if (l.right.kind === 'var' && !bound.has(l.right.name) && ready(l.left)) {
        bound.add(l.right.name);
        changed = true;
      }
    }
  }
  return bound;
}

function hasWildcard(t: Term): Term | undefined {
  if (t.kind === 'wildcard') return t;
  for (const x of operands(t)) {
    const w = hasWildcard(x);
    if (w) return w;
  }
  return undefined;
}

/** Pushes an ungrounded-variable error for each variable of clause `c` used before it is bound. */
export function groundClause(c: Clause, errors: Diagnostic[]): void {
  const reported = new Set<string>();
  const report = (t: Term, message: string, fix: string, key: string): void => {
    if (reported.has(key)) return;
    reported.add(key);
    errors.push(errorAt(t.loc.source, t.loc.start, t.loc.end, 'ungrounded-variable', message, { fix }));
  };
  const bindFix = (v: string): string => `add a positive body atom that binds \`${v}\`, or replace \`${v}\` by a constant.`;

  /** Reports unbound variables of `t` (used in the role described by `role`). */
  const need = (t: Term, bound: ReadonlySet<string>, role: string): void => {
    const visit = (x: Term): void => {
      if (x.kind === 'var') {
        if (!bound.has(x.name)) {
          const v = displayName(x.name);
          report(x, `variable \`${v}\` ${role} is not bound by any positive body atom`, bindFix(v), x.name);
        }
      } else if (x.kind === 'agg') {
        for (const v of freeVars(x)) {
          if (!bound.has(v)) {
            const occ = findVar(x, v)!;
            report(
              occ,
              `variable \`${displayName(v)}\` in this aggregate also occurs outside it but is not bound there`,
              bindFix(displayName(v)),
              v,
            );
          }
        }
        checkAgg(x, bound);
      } else operands(x).forEach(visit);
    };
    visit(t);
  };

  const checkAgg = (agg: Agg, outer: ReadonlySet<string>): void => {
    const bound = boundVars(agg.body, outer);
    checkBody(agg.body, bound);
    if (agg.target) {
      const w = hasWildcard(agg.target);
      if (w) report(w, `\`_\` cannot be the value of \`${agg.op}\``, 'name a variable bound in the aggregate body.', `w:${w.loc.start}`);
      need(agg.target, bound, `in the value of \`${agg.op}\``);
    }
  };

  /** `_` inside an expression argument of an atom (it has no value to compute with). */
  const nestedWildcard = (a: Term): void => {
    const w = a.kind === 'wildcard' ? undefined : hasWildcard(a);
    if (w)
      report(w, '`_` cannot be used in arithmetic or a functor', 'name a bound variable or write a constant instead.', `w:${w.loc.start}`);
  };

  const checkBody = (body: readonly Literal[], bound: ReadonlySet<string>): void => {
    for (const l of body) {
      if (l.kind === 'atom') {
        for (const a of l.atom.args) {
          if (a.kind === 'var' || a.kind === 'wildcard') continue;
          nestedWildcard(a);
          need(a, bound, `in \`${l.atom.rel}(...)\``);
        }
      } else if (l.kind === 'neg') {
        for (const a of l.atom.args) {
          if (a.kind === 'var' && !bound.has(a.name)) {
            const v = displayName(a.name);
            report(
              a,
              `variable \`${v}\` in the negation \`!${l.atom.rel}(...)\` is not bound by any positive body atom`,
              `bind \`${v}\` in a positive atom of the body, or write \`_\` if any value will do.`,
              a.name,
            );
          } else if (a.kind !== 'var' && a.kind !== 'wildcard') {
            nestedWildcard(a);
            need(a, bound, `in \`!${l.atom.rel}(...)\``);
          }
        }
      } else {
        const sides = [l.left, l.right];
        if (l.op === '=') {
          // `V = expr` with V unbound defines V: report only what keeps `expr` from being evaluated.
          const unboundVar = (t: Term): boolean => t.kind === 'var' && !bound.has(t.name);
          if (unboundVar(l.left) && !unboundVar(l.right)) sides.splice(0, 1);
          else if (unboundVar(l.right) && !unboundVar(l.left)) sides.splice(1, 1);
        }
        const isContains = isStringConstraint(l.op);
        for (const side of sides) {
          const w = hasWildcard(side);
          if (w) {
            const where = isContains ? `\`${l.op.replace('!', '')}\`` : 'a comparison or arithmetic';
            report(w, `\`_\` cannot be used in ${where}`, 'name a bound variable or write a constant instead.', `w:${w.loc.start}`);
          }
          need(side, bound, isContains ? `in \`${l.op.replace('!', '')}(...)\`` : 'in this comparison');
        }
      }
    }
  };

  const bound = boundVars(c.body, new Set());
  // A head variable defined by an equality is reported at the equality, not again in the head.
  const defined = new Set(bound);
  for (const l of c.body) {
    if (l.kind === 'cmp' && l.op === '=') {
      if (l.left.kind === 'var') defined.add(l.left.name);
      if (l.right.kind === 'var') defined.add(l.right.name);
    }
  }
  for (const a of c.head.args) {
    const w = hasWildcard(a);
    if (w) {
      report(
        w,
        '`_` cannot be used in the head of a rule or in a fact',
        'write a variable bound in the body, or a constant.',
        `w:${w.loc.start}`,
      );
      continue;
    }
    need(a, defined, c.isFact ? 'in this fact' : 'in the head');
  }
  checkBody(c.body, bound);
}

function findVar(t: Term, name: string): Term | undefined {
  switch (t.kind) {
    case 'var':
      return t.name === name ? t : undefined;
    case 'bin':
    case 'neg':
    case 'call':
      for (const x of operands(t)) {
        const f = findVar(x, name);
        if (f) return f;
      }
      return undefined;
    case 'agg': {
      if (t.target) {
        const f = findVar(t.target, name);
        if (f) return f;
      }
      for (const l of t.body)
        for (const x of literalTerms(l)) {
          const f = findVar(x, name);
          if (f) return f;
        }
      return undefined;
    }
    default:
      return undefined;
  }
}
