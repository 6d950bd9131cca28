import { test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { compare } from '../../src/datalog/check/consts.js';
import { applyFunctor } from '../../src/datalog/check/functors.js';
import {
  type EvalResult,
  evaluate,
  formatProof,
  formatWhyNot,
  loadProgram,
  type Proof,
  type RuleProgram,
  type Value,
} from '../../src/datalog/index.js';
import { operands, type Term } from '../../src/datalog/syntax/ast.js';
import { arith64, type Num, normNum } from '../../src/datalog/syntax/int64.js';
import { runs as scaled } from '../runs.js';
import { randomCase, seeds } from './gen.js';
import { run } from './helpers.js';

/** The value of a term under a substitution (undefined for `_`, aggregates or division by zero). */
function value(t: Term, s: Map<string, Value>): Value | undefined {
  switch (t.kind) {
    case 'var':
      return s.get(t.name);
    case 'num':
      return normNum(t.value);
    case 'str':
      return t.value;
    case 'neg': {
      const a = value(t.arg, s);
      return a === undefined ? undefined : (arith64('-', 0, a as Num) ?? undefined);
    }
    case 'bin': {
      const l = value(t.left, s);
      const r = value(t.right, s);
      return l === undefined || r === undefined ? undefined : (arith64(t.op, l as Num, r as Num) ?? undefined);
    }
    case 'call': {
      const args = t.args.map((a) => value(a, s));
      return args.some((a) => a === undefined) ? undefined : (applyFunctor(t.fn, args as Value[]) ?? undefined);
    }
    default:
      return undefined;
  }
}

const hasAgg = (t: Term): boolean => t.kind === 'agg' || operands(t).some(hasAgg);

/** Checks that a proof is valid: each rule step is an instance of its rule, leaves are facts. */
function validate(program: RuleProgram, res: EvalResult, input: Map<string, Value[][]>, root: Proof): void {
  const stack = [root];
  const seen = new Set<Proof>();
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    if (p.kind === 'input') {
      expect(input.get(p.relation)!.some((t) => JSON.stringify(t) === JSON.stringify(p.tuple))).toBe(true);
      continue;
    }
    const pc = program.clauses[p.clauseId!]!;
    expect(pc.clause.head.rel).toBe(p.relation);
    if (p.kind === 'fact') {
      expect(pc.clause.isFact).toBe(true);
      expect(pc.clause.head.args.map((a) => value(a, new Map()))).toEqual(p.tuple);
      continue;
    }
    const s = new Map(p.substitution);
    expect(pc.clause.head.args.map((a) => value(a, s))).toEqual(p.tuple);
    let i = 0;
    for (const l of pc.clause.body) {
      const prem = p.premises[i++]!;
      if (l.kind === 'atom') {
        expect(prem.kind).toBe('atom');
        const sub = (prem as { proof: Proof }).proof;
        expect(sub.relation).toBe(l.atom.rel);
        expect(sub.height).toBeLessThan(p.height);
        l.atom.args.forEach((a, c) => {
          if (a.kind !== 'wildcard') expect(value(a, s)).toBe(sub.tuple[c]);
        });
        stack.push(sub);
      } else if (l.kind === 'neg') {
        expect(prem.kind).toBe('absent');
        const pattern = l.atom.args.map((a) => (a.kind === 'wildcard' ? undefined : value(a, s)));
        const present = res.tuples(l.atom.rel).some((t) => t.every((v, c) => pattern[c] === undefined || pattern[c] === v));
        expect(present).toBe(false);
      } else if (!hasAgg(l.left) && !hasAgg(l.right)) {
        const a = value(l.left, s);
        const b = value(l.right, s);
        expect(a !== undefined && b !== undefined && compare(l.op, a, b)).toBe(true);
      }
    }
  }
}

describe('provenance', () => {
  fcTest.prop([seeds], scaled(150))('every proof is valid and minimal proofs exist for every derived tuple', (seed) => {
    const c = randomCase(seed);
    const { program } = loadProgram([{ path: `random-${seed}.dl`, text: c.text }]);
    const db = program.newDatabase();
    for (const [rel, rows] of c.facts) db.insertMany(rel, rows);
    const res = evaluate(program, db);
    for (const info of program.relations) {
      for (const t of res.tuples(info.name).slice(0, 15)) {
        const proof = res.explain(info.name, t);
        expect(proof, `${info.name}(${t.join(', ')}) in\n${c.text}`).not.toBeNull();
        validate(program, res, c.facts, proof!);
      }
    }
  });

  it('explains with the minimal height and renders the proof', () => {
    const r = run(
      `.decl e(x: number, y: number)\n.input e\n.decl p(x: number, y: number)\n.output p\np(X, Y) :- e(X, Y).\np(X, Z) :- p(X, Y), e(Y, Z).`,
      {
        e: [
          [1, 2],
          [2, 3],
          [3, 4],
          [1, 4],
        ],
      },
    );
    const proof = r.explain('p', [1, 4])!;
    expect(proof.height).toBe(1);
    expect(formatProof(proof)).toBe('p(1, 4)  [rule test.dl:5, height 1]  {X=1, Y=4}\n  e(1, 4)  [input fact]');
    expect(r.explain('p', [4, 1])).toBeNull();
  });

  it('why-not names the first failing literal of each rule', () => {
    const r = run(
      `.decl e(x: number, y: number)\n.input e\n.decl bad(x: number)\n.input bad\n.decl p(x: number, y: number)\n.output p
p(X, Y) :- e(X, Y), !bad(Y).
p(X, 7) :- e(X, _), X > 5.`,
      {
        e: [
          [1, 2],
          [2, 3],
        ],
        bad: [[3]],
      },
    );
    const w = r.whyNot('p', [2, 3]);
    expect(w.map((x) => [x.rule.line, x.literal, x.reason])).toEqual([
      [7, '!bad(Y)', 'bad contains the negated tuple for every binding of the literals before it'],
      [8, null, 'the head has the constant 7 in column 2'],
    ]);
    expect(r.whyNot('p', [2, 7]).map((x) => x.literal)).toEqual(['e(X, Y)', 'X > 5']);
    expect(formatWhyNot('p', [2, 7], r.whyNot('p', [2, 7]), false)).toContain('fails at X > 5 (8:21): the comparison is false');
    expect(formatWhyNot('e', [9, 9], r.whyNot('e', [9, 9]), true)).toBe(
      'e(9, 9) is not derived: e is an input relation and this tuple is not among its facts.',
    );
  });
});
