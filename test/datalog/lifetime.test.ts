import { describe, expect, it } from 'vitest';
import { evaluate, loadProgram } from '../../src/datalog/index.js';
import { lastReaders, readsOf } from '../../src/datalog/plan/lifetime.js';

const text = `.decl e(x: number, y: number)
.input e
.decl p(x: number, y: number)
p(X, Y) :- e(X, Y).
p(X, Z) :- p(X, Y), e(Y, Z).
.decl q(x: number)
q(X) :- p(X, _), !e(X, X).
.decl r(x: number)
.output r
r(X) :- q(X), X > 1.
`;

describe('lastReaders', () => {
  it('lists each relation after the last evaluated stratum that reads it', () => {
    const { program } = loadProgram([{ path: 'l.dl', text }]);
    const id = (n: string): number => program.relation(n)!.id;
    const at = (n: string, all: number[][]): number => all.findIndex((rels) => rels.includes(id(n)));
    const strat = (n: string): number => program.strata.findIndex((s) => s.relations.includes(id(n)));
    const all = lastReaders(program, () => true);
    expect(at('e', all)).toBe(strat('q')); // read by p's stratum and, last, by q's negation
    expect(at('p', all)).toBe(strat('q'));
    expect(at('q', all)).toBe(strat('r'));
    expect(at('r', all)).toBe(-1); // no rule reads the output
    // A stratum not evaluated reads nothing.
    const some = lastReaders(program, (i) => i !== strat('q'));
    expect(at('e', some)).toBe(strat('p'));
  });

  it('readsOf lists the relations each stratum reads (positive, negated), none it only writes', () => {
    const { program } = loadProgram([{ path: 'l.dl', text }]);
    const name = (r: number): string => program.relations[r]!.name;
    const strat = (n: string): number => program.strata.findIndex((s) => s.relations.some((r) => name(r) === n));
    const reads = readsOf(program).map((s) => [...s].map(name).sort());
    expect(reads[strat('p')]).toEqual(['e', 'p']);
    expect(reads[strat('q')]).toEqual(['e', 'p']);
    expect(reads[strat('r')]).toEqual(['q']);
  });

  it('leaves every tuple and proof intact after the indexes are freed', () => {
    const { program } = loadProgram([{ path: 'l.dl', text }]);
    const db = program.newDatabase();
    for (let i = 0; i < 50; i++) db.insert('e', [i, i + 1]);
    db.insert('e', [7, 7]);
    const res = evaluate(program, db);
    expect(res.size('r')).toBe(47); // 2..49 but 7 (a loop)
    expect(res.contains('r', [7])).toBe(false);
    expect(res.contains('r', [40])).toBe(true);
    // The proof goes down to the input through q and p, each premise of smaller height.
    const proof = res.explain('r', [40])!;
    const q = proof.premises.find((p) => p.kind === 'atom')!;
    expect(q.kind === 'atom' && q.proof.relation).toBe('q');
    if (q.kind !== 'atom') return;
    expect(q.proof.height).toBeLessThan(proof.height);
    const p = q.proof.premises.find((x) => x.kind === 'atom')!;
    expect(p.kind === 'atom' && p.proof.relation).toBe('p');
    if (p.kind !== 'atom') return;
    expect(p.proof.height).toBeLessThan(q.proof.height);
    // p(2, 12) is derived nine iterations after p(2, 3) (heights as steps stay exact).
    expect(res.explain('p', [2, 12])!.height - res.explain('p', [2, 3])!.height).toBe(9);
  });
});

describe('evaluate with keep', () => {
  const facts = (program: ReturnType<typeof loadProgram>['program']) => {
    const db = program.newDatabase();
    for (let i = 0; i < 50; i++) db.insert('e', [i, i + 1]);
    db.insert('e', [7, 7]);
    return db;
  };

  it('gives the kept relations as a full evaluation does, and frees the others', () => {
    const { program } = loadProgram([{ path: 'l.dl', text }]);
    const full = evaluate(program, facts(program));
    const db = facts(program);
    const kept = evaluate(program, db, { keep: new Set(['q', 'r']) });
    expect(kept.tuples('r')).toEqual(full.tuples('r'));
    expect(kept.tuples('q')).toEqual(full.tuples('q'));
    const each: unknown[][] = [];
    kept.forEachTuple('r', (t) => each.push([...t]));
    expect(each).toEqual(full.tuples('r'));
    // Freed: the input and the intermediate relation; reading one is the caller's error.
    expect(() => kept.tuples('p')).toThrow(/the relation p was freed after evaluation/);
    expect(() => kept.size('e')).toThrow(/the relation e was freed/);
    expect(kept.storage[program.relation('e')!.id]!.count).toBe(0);
    // The database gave its input relations up: it cannot be evaluated again.
    expect(() => evaluate(program, db)).toThrow(/gave up relations/);
    // Without keep every relation stays.
    expect(full.size('p')).toBeGreaterThan(0);
  });

  it('evaluates only what the kept relations depend on: an output not kept is neither derived nor readable', () => {
    const { program } = loadProgram([{ path: 'l.dl', text }]);
    const full = evaluate(program, facts(program));
    const kept = evaluate(program, facts(program), { keep: new Set(['q']) });
    expect(kept.tuples('q')).toEqual(full.tuples('q'));
    expect(kept.storage[program.relation('r')!.id]!.count).toBe(0);
    expect(() => kept.tuples('r')).toThrow(/the relation r was freed after evaluation/);
    // Keeping the output alone evaluates what it needs, q included, and frees q after r's stratum.
    const out = evaluate(program, facts(program), { keep: new Set(['r']) });
    expect(out.tuples('r')).toEqual(full.tuples('r'));
    expect(() => out.tuples('q')).toThrow(/the relation q was freed/);
  });

  it('forgets, once asked, the symbols no kept row holds, and reads the kept ones as before', () => {
    const named = `.decl e(x: symbol, y: symbol)
.input e
.decl q(x: symbol)
q(X) :- e(X, "t").
.decl r(x: symbol)
.output r
r(Y) :- e(_, Y), Y != "t".
`;
    const { program } = loadProgram([{ path: 'n.dl', text: named }]);
    const db = program.newDatabase();
    for (let i = 0; i < 20; i++) db.insert('e', [`a${i}`, i % 2 === 0 ? 't' : `b${i}`]);
    const res = evaluate(program, db, { keep: new Set(['q']) });
    const before = res.tuples('q');
    expect(before).toHaveLength(10);
    const size = res.symbols.size;
    res.retainSymbols();
    expect(res.tuples('q')).toEqual(before);
    expect(res.contains('q', ['a0'])).toBe(true);
    expect(res.symbols.size).toBe(size);
    // Only the kept rows' names stay: a1 (no q row), b1 and the constant "t" are forgotten.
    expect(res.symbols.forgottenCount).toBe(size - 10);
    expect(res.symbols.lookup('a1')).toBe(-1);
    expect(res.contains('q', ['a1'])).toBe(false);
  });
});
