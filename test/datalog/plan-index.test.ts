// Which accesses of a plan build an index: a plan that runs once reads its first relation once,
// so constant keys there filter a scan (no index the relation would hold while it lives); a plan
// of a recursive rule runs every iteration and keeps its index.
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/datalog/plan/plan.js';
import { prog } from './helpers.js';

const program = prog(`
.decl r(a: number, k: symbol)
.input r
.decl s(a: number, b: number)
.input s
.decl p(a: number, b: number)
p(A, B) :- r(A, "k"), s(A, B).
.decl q(a: number)
q(A) :- r(A, "k"), s(A, _).
q(A) :- r(A, "k"), q(B), s(B, A).
`);

const rules = program.clauses.map((c) => c.clause).filter((c) => !c.isFact);

function planOf(clause: number, recursive: string[], delta = -1) {
  const c = rules[clause]!;
  return buildPlan({
    body: c.body,
    head: c.head.args,
    relId: (n) => program.relation(n)!.id,
    arity: (r) => program.relations[r]!.kinds.length,
    size: (r) => (program.relations[r]!.name === 'r' ? 10 : 1000),
    recursive: new Set(recursive.map((n) => program.relation(n)!.id)),
    delta,
    symbols: program.newDatabase().symbols,
  });
}

describe('indexes of a plan', () => {
  it('a plan that runs once scans its first relation for constant keys, and looks the next one up by an index', () => {
    for (const clause of [0, 1]) {
      const plan = planOf(clause, clause === 0 ? ['p'] : ['q']);
      expect(plan.accesses.map((a) => [program.relations[a.rel]!.name, a.keyCols])).toEqual([
        ['r', null],
        ['s', [0]],
      ]);
    }
  });

  it('a plan of a recursive rule (run every iteration) keeps the index of its constant keys', () => {
    const plan = planOf(2, ['q']);
    const r = plan.accesses.find((a) => program.relations[a.rel]!.name === 'r')!;
    expect(r.keyCols).not.toBeNull();
  });
});
