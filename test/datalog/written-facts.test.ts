// Facts written in the rule files (an op catalog of thousands) are encoded once per program, not
// per evaluation: each evaluation interns each of their strings once, and derives what it did
// when they were encoded argument by argument (provenance included).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FactRows, factOffsets } from '../../src/datalog/exec/fact-rows.js';
import { evaluate, evaluateNaive, formatProof, loadProgram } from '../../src/datalog/index.js';
import { SymbolTable } from '../../src/datalog/storage/symbols.js';

const CATALOG = `.decl op(name: symbol, k: number, role: symbol)
.decl seen(name: symbol)
.input seen
.decl big(name: symbol, k: number)
.output big
${Array.from({ length: 60 }, (_, i) => `op("op${i % 7}", ${i}, "${i % 2 === 0 ? 'read' : 'write'}").`).join('\n')}
op("op1", 1, "read").
big(N, K) :- op(N, K, "write"), seen(N), K > 40.
`;

afterEach(() => vi.restoreAllMocks());

describe('facts written in the rule files', () => {
  it('interns each of their strings once per evaluation', () => {
    const { program } = loadProgram([{ path: 'catalog.dl', text: CATALOG }]);
    evaluate(program, program.newDatabase());
    const intern = vi.spyOn(SymbolTable.prototype, 'intern');
    const db = program.newDatabase();
    db.insert('seen', ['op3']);
    const r = evaluate(program, db);
    // 7 names and 2 roles (argument by argument: 122), the input fact, the rule's constant.
    expect(intern.mock.calls.length).toBeLessThanOrEqual(15);
    expect(r.tuples('big')).toEqual([
      ['op3', 45],
      ['op3', 59],
    ]);
  });

  it('derive and explain as the naive evaluator, plain or computed arguments, in a relation also given input facts', () => {
    const text = `.decl r(a: symbol, b: number)
.input r
.decl s(a: symbol, b: number)
.output s
r("x", 1). r("y", 9223372036854775807). r(cat("a", "b"), 2 + 3). r("x", -4). r("x", 1).
s(A, B) :- r(A, B).
`;
    const { program } = loadProgram([{ path: 'mixed.dl', text }]);
    for (let i = 0; i < 2; i++) {
      const db = program.newDatabase();
      db.insertMany('r', [
        ['x', 1],
        ['z', 7],
      ]);
      const res = evaluate(program, db);
      const naive = evaluateNaive(
        program,
        new Map([
          [
            'r',
            [
              ['x', 1],
              ['z', 7],
            ],
          ],
        ]),
      );
      expect(res.tuples('s')).toEqual(naive.get('s'));
      expect(formatProof(res.explain('s', ['ab', 5])!)).toContain('r("ab", 5)  [fact mixed.dl:5]');
      expect(formatProof(res.explain('s', ['x', 1])!)).toContain('[input fact]');
    }
  });
  it('explains each fact row by its own clause, facts of relations interleaved and repeated', () => {
    const text = `.decl a(x: symbol)
.decl b(x: number)
.decl c(x: symbol, y: number)
.output c
a("p").
b(1).
a("q").
a("p").
b(2).
a("r").
c(X, Y) :- a(X), b(Y).
`;
    const { program } = loadProgram([{ path: 'mix.dl', text }]);
    const res = evaluate(program, program.newDatabase());
    expect(res.tuples('c')).toHaveLength(6);
    const proof = (x: string, y: number): string => formatProof(res.explain('c', [x, y])!);
    expect(proof('p', 1)).toContain('a("p")  [fact mix.dl:5]');
    expect(proof('q', 1)).toContain('a("q")  [fact mix.dl:7]');
    expect(proof('r', 2)).toContain('a("r")  [fact mix.dl:10]');
    expect(proof('r', 2)).toContain('b(2)  [fact mix.dl:9]');
  });

  it('FactRows: the clause of each row a relation received in order, none for other rows', () => {
    // Relations 0 and 2 receive facts (two and one), relation 1 none.
    const rows = new FactRows(factOffsets([0, 2, 0], 3));
    rows.add(0, 4, 10);
    rows.add(2, 0, 11);
    rows.add(0, 5, 12);
    expect([rows.clauseOf(0, 3), rows.clauseOf(0, 4), rows.clauseOf(0, 5), rows.clauseOf(0, 6)]).toEqual([undefined, 10, 12, undefined]);
    expect([rows.clauseOf(1, 0), rows.clauseOf(2, 0), rows.clauseOf(2, 1), rows.clauseOf(7, 0)]).toEqual([
      undefined,
      11,
      undefined,
      undefined,
    ]);
    expect(() => rows.add(0, 9, 13)).toThrow(/does not follow/);
  });
});
