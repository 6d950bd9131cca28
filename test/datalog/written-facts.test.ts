// Facts written in the rule files (an op catalog of thousands) are encoded once per program, not
// per evaluation: each evaluation interns each of their strings once, and derives what it did
// when they were encoded argument by argument (provenance included).
import { afterEach, describe, expect, it, vi } from 'vitest';
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
});
