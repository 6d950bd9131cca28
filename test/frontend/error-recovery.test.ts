/**
 * Error recovery reads little with the grammar (issue 34, item 13): a statement the hand-written
 * parser declines (most often an error) late in a long function body is matched by the grammar
 * from the statement before it, not from the top of the body; the diagnostics and the IR are
 * the ones the grammar alone gives.
 */

import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseModuleIsolated } from '../../src/frontend/index.js';
import { setGroupCache } from '../../src/frontend/program.js';
import { pyptoGrammar } from '../../src/frontend/semantics.js';
import { statementStarts } from '../../src/frontend/split-chunk.js';
import type { Module } from '../../src/ir/nodes.js';

const module = (bodies: string[][]): string =>
  [
    'import pypto.language as pl',
    '',
    '',
    '@pl.program',
    'class P:',
    ...bodies.flatMap((body, i) => [
      '    @pl.function(type=pl.FunctionType.InCore)',
      `    def k${i}(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Scalar[pl.INT32]):`,
      ...body.map((l) => `        ${l}`),
      '',
    ]),
  ].join('\n');

const serial = (m: Module): string =>
  JSON.stringify(
    { programs: m.programs, problems: (m.problems ?? []).map((d) => [d.code, d.message, d.location?.start, d.location?.end]) },
    (k, v: unknown) => (k === 'source' ? undefined : v instanceof Map ? [...v] : v),
  );

/** Characters given to the grammar while `run` runs. */
function grammarChars(run: () => void): number {
  const g = pyptoGrammar();
  const spy = vi.spyOn(g, 'match');
  try {
    run();
    return spy.mock.calls.reduce((n, c) => n + String(c[0]).length, 0);
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => setGroupCache(true));

describe('error recovery', () => {
  it('an error at the end of a 60-statement body: the grammar reads about two statements, not the body', () => {
    const body = [...Array.from({ length: 60 }, (_, j) => `t${j} = pl.add(x, x) + y * ${j}`), 'z = y +', 'return x'];
    const text = module([body]);
    setGroupCache(false);
    const chars = grammarChars(() => {
      const m = parseModuleIsolated(text, 'm.py');
      expect(m.problems!.map((d) => [d.code, d.message])).toEqual([['syntax-error', 'expected an expression']]);
    });
    expect(chars).toBeLessThan(200);
  });

  it('gives the diagnostics and IR the grammar alone gives (errors, constructs left to the grammar)', () => {
    const body = [
      'a = 1',
      'b = a + 1',
      'if a:',
      '    c = 2',
      'else:',
      '    c = 3',
      'd = (c +',
      '     1) +',
      'e = 1',
      'for i in pl.range(4):',
      '    f = x if y else x',
      'g = 2',
    ];
    const text = module([body, ['a = 1', 'b = 2', 'c = 3', ') = 4', 'd = 5']]);
    setGroupCache(false);
    expect(serial(parseModuleIsolated(text, 'm.py'))).toBe(serial(parseModuleIsolated(text, 'm.py', { grammarOnly: true })));
  });

  const stmt = fc.constantFrom(
    'a = 1',
    'b = a + y',
    'pl.add(x, x)',
    'z = y +',
    ') = 1',
    'if a:\n    b = 1',
    'if a:\n    b = 1\nelse:\n    b = 2',
    'for i in pl.range(2):\n    c = i',
    'with pl.incore():\n    d = 1',
    'e = x if y else x',
    'pass',
    'elif a:',
    'else:',
    'if a:',
    '    f = 1',
    'g = [1,\n     2]',
    'return x',
    'h = f"x"',
    'while a:\n    break',
    'x: pl.Scalar[pl.INT32] = 1',
    'i = ...',
    '...',
  );
  test.prop([fc.array(fc.array(stmt, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 })], { numRuns: 60 })(
    'random bodies with errors: the same module as the grammar alone reads',
    (bodies) => {
      const text = module(bodies.map((b) => b.flatMap((s) => s.split('\n'))));
      setGroupCache(false);
      expect(serial(parseModuleIsolated(text, 'm.py'))).toBe(serial(parseModuleIsolated(text, 'm.py', { grammarOnly: true })));
    },
  );

  it('finds the statements at the base level of a pre-tokenized text (clause lines belong to their statement)', () => {
    const out = 'a = 1\nif c:\n\x01b = 2\n\x02else:\n\x01b = 3\n\x02d = 4\n';
    expect(statementStarts(out).map((i) => out.slice(i, i + 5))).toEqual(['a = 1', 'if c:', 'd = 4']);
  });
});
