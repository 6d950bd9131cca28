import { test as fcTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { evaluate, loadProgram, projectInputs, type RuleProgram, type Value } from '../../src/datalog/index.js';
import { randomCase, seeds } from './gen.js';

// Input columns no rule reads are not stored (projection.ts): the outputs stay the same.

function outputs(program: RuleProgram, facts: ReadonlyMap<string, Value[][]>, keep?: ReadonlySet<string>): Map<string, unknown> {
  const run = keep ? projectInputs(program, keep) : program;
  const db = run.newDatabase();
  for (const [rel, rows] of facts) db.insertMany(rel, rows);
  const outs = program.relations.filter((i) => i.output).map((i) => i.name);
  // The outputs are read: they are kept (projectInputs reads them whole either way).
  const r = evaluate(run, db, keep ? { keep: new Set([...keep, ...outs]) } : {});
  return new Map(outs.map((n) => [n, r.tuples(n)]));
}

describe('projected input relations', () => {
  fcTest.prop([seeds], { numRuns: 200 })('give the outputs of the whole relations on random programs', (seed) => {
    const c = randomCase(seed);
    const { program } = loadProgram([{ path: `random-${seed}.dl`, text: c.text }]);
    expect(outputs(program, c.facts, new Set())).toEqual(outputs(program, c.facts));
  });

  const text = `
.decl span(n: number, start: number, end: number, line: number, col: number)
.input span
.decl pick(n: number)
.input pick
.decl seen(n: number, s: symbol)
.input seen
.decl first(p: number)
.output first
first(P) :- P = min Q : { pick(N), span(N, Q, _, _, _) }.
.decl lines(n: number, c: number)
.output lines
lines(N, C) :- pick(N), C = count : { seen(N, _) }.
.decl any(n: number)
.output any
any(N) :- pick(N), !span(N, _, _, _, _).
`;

  test('keeps only the columns read, not those a count reads, and gives the same outputs', () => {
    const { program } = loadProgram([{ path: 'p.dl', text }]);
    const cut = projectInputs(program, new Set());
    expect(cut.relation('span')!.kinds).toEqual(['number', 'number']);
    expect(cut.relation('span')!.projection!.columns).toEqual([0, 1]);
    expect(cut.relation('pick')!.projection).toBeUndefined();
    expect(cut.relation('seen')!.kinds).toEqual(['number', 'symbol']); // read by a count: its rows are counted
    expect(projectInputs(program, new Set(['span'])).relation('span')!.kinds.length).toBe(5); // kept: read whole
    expect(projectInputs(program, new Set())).toBe(cut); // one projection per program and kept set
    const facts = new Map<string, Value[][]>([
      [
        'span',
        [
          [1, 10, 20, 1, 0],
          [1, 10, 25, 2, 4],
          [2, 5, 9, 3, 1],
          [3, 7, 8, 1, 1],
        ],
      ],
      ['pick', [[1], [2], [4]]],
      [
        'seen',
        [
          [1, 'a'],
          [1, 'b'],
          [2, 'a'],
        ],
      ],
    ]);
    const want = outputs(program, facts);
    expect(want.get('first')).toEqual([[5]]);
    expect(want.get('lines')).toEqual([
      [1, 2],
      [2, 1],
      [4, 0],
    ]);
    expect(outputs(program, facts, new Set())).toEqual(want);
    // The projected relation still takes (and checks) tuples of every declared column.
    const db = cut.newDatabase();
    expect(() => db.insert('span', [1, 2, 3])).toThrow(/span has 5 columns/);
    expect(() => db.insert('span', [1, 2, 'x', 4, 5])).toThrow(/column 3 \(end\) of span is a number/);
    db.insert('span', [1, 2, 3, 4, 5]);
    expect(db.size('span')).toBe(1);
  });
});
