// Plans found again by replaying their choices (plan/plan-memo.ts): the memo gives exactly the
// plan buildPlan makes for the sizes asked (or nothing), and a program evaluated on one fact set
// after another (its plans then found again) derives what the naive evaluator does each time.
import { test as fcTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { evaluate, evaluateNaive, loadProgram } from '../../src/datalog/index.js';
import * as planModule from '../../src/datalog/plan/plan.js';
import { buildPlan, type Choice } from '../../src/datalog/plan/plan.js';
import { PlanMemo } from '../../src/datalog/plan/plan-memo.js';
import { SymbolTable } from '../../src/datalog/storage/symbols.js';
import { runs as scaled } from '../runs.js';
import { randomCase, seeds } from './gen.js';

describe('plans found again', () => {
  fcTest.prop([seeds, fc.array(fc.array(fc.nat(5000), { minLength: 12, maxLength: 12 }), { minLength: 1, maxLength: 6 })], scaled(100))(
    'the memo gives the plan buildPlan makes for the sizes, or nothing',
    (seed, sizings) => {
      const { program } = loadProgram([{ path: `random-${seed}.dl`, text: randomCase(seed).text }]);
      const symbols = new SymbolTable();
      const memo = new PlanMemo<planModule.Plan>();
      for (const pc of program.clauses) {
        if (pc.clause.isFact) continue;
        const stratum = program.strata.find((s) => s.clauses.includes(pc.id))!;
        const rec = new Set(stratum.recursive ? stratum.relations : []);
        const atoms = pc.clause.body.filter((l) => l.kind === 'atom' && rec.has(program.byName.get(l.atom.rel)!.id)).length;
        for (let delta = -1; delta < atoms; delta++) {
          for (const sizes of sizings) {
            const size = (r: number): number => sizes[r % sizes.length]!;
            const input = {
              body: pc.clause.body,
              head: pc.clause.head.args,
              relId: (n: string) => program.byName.get(n)!.id,
              arity: (r: number) => program.relations[r]!.kinds.length,
              size,
              recursive: rec,
              delta,
              symbols,
            };
            const choices: Choice[] = [];
            const plan = buildPlan({ ...input, choices });
            const found = memo.get(`${pc.id}:${delta}`, size);
            if (found !== undefined) expect(found).toEqual(plan);
            memo.put(`${pc.id}:${delta}`, choices, plan);
            expect(memo.get(`${pc.id}:${delta}`, size)).toEqual(plan);
          }
        }
      }
    },
  );

  fcTest.prop([seeds, fc.array(seeds, { minLength: 2, maxLength: 4 })], scaled(100))(
    'a program evaluated on one fact set after another derives what the naive evaluator does',
    (seed, factSeeds) => {
      const c = randomCase(seed);
      const { program } = loadProgram([{ path: `random-${seed}.dl`, text: c.text }]);
      // (Every random case has the same input relations: another case's facts fit this program.)
      for (const facts of [c.facts, ...factSeeds.map((s) => randomCase(s).facts)]) {
        const db = program.newDatabase();
        for (const [rel, rows] of facts) db.insertMany(rel, rows);
        const fast = evaluate(program, db);
        const slow = evaluateNaive(program, facts);
        for (const info of program.relations) expect(fast.tuples(info.name), `${info.name} in\n${c.text}`).toEqual(slow.get(info.name));
      }
    },
  );

  it('a second evaluation on facts of the same sizes plans nothing', () => {
    const { program } = loadProgram([
      {
        path: 'tc.dl',
        text: `.decl e(x: number, y: number)\n.input e\n.decl p(x: number, y: number)\n.output p
p(X, Y) :- e(X, Y).\np(X, Z) :- p(X, Y), e(Y, Z).\np(X, Z) :- e(X, Y), p(Y, Z), e(Z, _).`,
      },
    ]);
    const once = (edges: number[][]): number[][] => {
      const db = program.newDatabase();
      db.insertMany('e', edges);
      return evaluate(program, db).tuples('p') as number[][];
    };
    expect(
      once([
        [1, 2],
        [2, 3],
      ]),
    ).toEqual([
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    const spy = vi.spyOn(planModule, 'buildPlan');
    expect(
      once([
        [5, 6],
        [6, 7],
      ]),
    ).toEqual([
      [5, 6],
      [5, 7],
      [6, 7],
    ]);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});

describe('the plan memo', () => {
  it('holds at most 20,000 plans, then starts again', () => {
    const memo = new PlanMemo<number>();
    for (let i = 0; i < 20_000; i++) memo.put(`k${i}`, [], i);
    expect(memo.size).toBe(20_000);
    expect(memo.get('k0', () => 0)).toBe(0);
    memo.put('another', [], -1);
    expect(memo.size).toBe(1);
    expect(memo.get('k0', () => 0)).toBeUndefined();
    expect(memo.get('another', () => 0)).toBe(-1);
  });
});
