// Output order: `tuples()` and the `.csv` text `writeOutputs` writes list a relation's tuples
// sorted column by column (numbers numerically, symbols by code units), whichever way the rows
// are sorted (a bitmap of dense keys, a radix sort of sparse keys, a row order for keys beyond
// 32 bits or wide numbers), against a plain comparison sort of the decoded tuples.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { compareTuples } from '../../src/datalog/exec/result.js';
import { type Value, writeOutputs } from '../../src/datalog/index.js';
import { normNum } from '../../src/datalog/syntax/int64.js';
import { run } from './helpers.js';

/** Numbers from ranges that select each sorting path: dense small, sparse 32-bit, beyond 32 and 53 bits. */
const num: fc.Arbitrary<Value> = fc.oneof(
  fc.integer({ min: -4, max: 12 }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53) + 1),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(normNum),
);
const sym: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom('a', 'b', 'B', '', 'ab', 'é', '\u{1F600}'),
  fc.string({ unit: 'grapheme', maxLength: 4 }).map((s) => s.replace(/[\t\n\r]/g, ' ')),
);

const kinds = fc.array(fc.constantFrom('number' as const, 'symbol' as const), { minLength: 1, maxLength: 3 });
const relation = kinds.chain((ks) =>
  fc.record({
    kinds: fc.constant(ks),
    rows: fc.array(fc.tuple(...ks.map((k) => (k === 'number' ? num : sym))), { maxLength: 60 }),
    dense: fc.boolean(),
  }),
);

describe('output order', () => {
  fcTest.prop([relation], { numRuns: 300 })('tuples() and the .csv text are the decoded tuples sorted', ({ kinds: ks, rows, dense }) => {
    // `dense`: numbers folded into a small range, so the keys fit a bitmap.
    const data = rows.map((r) => r.map((v) => (dense && typeof v !== 'string' ? Number(BigInt(v) % 7n) : v)));
    const cols = ks.map((k, i) => `c${i}: ${k}`).join(', ');
    const vars = ks.map((_, i) => `X${i}`).join(', ');
    const result = run(`.decl r(${cols})\n.input r\n.decl o(${cols})\no(${vars}) :- r(${vars}).\n.output o\n`, { r: data });
    const seen = new Map(data.map((t) => [JSON.stringify(t, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)), t]));
    const expected = [...seen.values()].sort(compareTuples);
    expect(result.tuples('o')).toEqual(expected);
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-order-'));
    writeOutputs(result, dir);
    expect(readFileSync(join(dir, 'o.csv'), 'utf8')).toBe(expected.map((t) => `${t.map(String).join('\t')}\n`).join(''));
  });

  fcTest.prop([fc.integer({ min: 1, max: 3000 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 3001 })], { numRuns: 20 })(
    'a chain closure of any offset is written in order (dense keys, many rows)',
    (n, base) => {
      const edges = Array.from({ length: Math.min(n, 60) }, (_, i) => [base + i, base + i + 1]);
      const result = run(
        '.decl e(x: number, y: number)\n.input e\n.decl p(x: number, y: number)\n.output p\np(X, Y) :- e(X, Y).\np(X, Z) :- p(X, Y), e(Y, Z).\n',
        { e: edges },
      );
      const dir = mkdtempSync(join(tmpdir(), 'ptolog-order-'));
      writeOutputs(result, dir);
      const lines = readFileSync(join(dir, 'p.csv'), 'utf8').trimEnd().split('\n');
      const want: string[] = [];
      for (let i = 0; i < edges.length; i++) for (let j = i + 1; j <= edges.length; j++) want.push(`${base + i}\t${base + j}`);
      expect(lines).toEqual(want);
    },
  );
});

describe('reading a relation of fewer than two rows', () => {
  // Their one order needs no text order of every symbol: right after a 1M-statement evaluation,
  // sorting its 2.3M symbols to read the empty bad_op_effect took the peak up by 52 MB.
  const program = `.decl r(s: symbol)\n.input r\n.decl one(s: symbol)\none("b") :- r("b").\n.decl none(s: symbol)\nnone(S) :- r(S), S = "z".\n.decl two(s: symbol)\ntwo(S) :- r(S).\n.output one\n.output none\n.output two\n`;
  const ranked = (result: object): boolean => (result as { ranks: unknown }).ranks !== null;
  fcTest.prop([fc.constantFrom('one', 'none')])('sorts no symbols', (rel) => {
    const result = run(program, { r: [['b'], ['a']] });
    expect(result.tuples(rel)).toEqual(rel === 'one' ? [['b']] : []);
    expect(ranked(result)).toBe(false);
    expect(result.tuples('two')).toEqual([['a'], ['b']]);
    expect(ranked(result)).toBe(true);
  });
});
