/**
 * Error recovery (issue 34, item 13): a statement with an error is recorded and skipped, and the
 * parse goes on with the next statement of its block, so every erroneous statement of a body is
 * reported from one parse — no statement is parsed more than twice (counted, not timed).
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it, vi } from 'vitest';
import { StmtParser } from '../../src/frontend/hand-stmt.js';
import { parseModuleIsolated } from '../../src/frontend/index.js';
import type { Module } from '../../src/ir/nodes.js';

const HEADER_LINES = 7;

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

/** Statement parses (each statement of each block read) while `run` runs. */
function statementParses(run: () => void): number {
  const spy = vi.spyOn(StmtParser.prototype as unknown as { guardedStmt(out: unknown[]): void }, 'guardedStmt');
  try {
    run();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

/** The 1-based lines of the module's problems, with their codes and messages. */
const problems = (m: Module): [number, string, string][] =>
  (m.problems ?? []).map((d) => [d.location!.source.position(d.location!.start).line, d.code, d.message]);

/** Every statement parsed (no statement-group cache): the parses are counted. */
const UNCACHED = { blocks: { groupCache: false } };

describe('error recovery', () => {
  it('an error at the end of a 60-statement body: reported, every statement parsed once', () => {
    const body = [...Array.from({ length: 60 }, (_, j) => `t${j} = pl.add(x, x) + y * ${j}`), 'z = y +', 'return x'];
    const n = statementParses(() => {
      const m = parseModuleIsolated(module([body]), 'm.py', UNCACHED);
      expect(m.problems!.map((d) => [d.code, d.message])).toEqual([['syntax-error', 'expected an expression']]);
    });
    expect(n).toBeLessThanOrEqual(2 * body.length);
  });

  it('every erroneous statement of a body is reported, in order, nested ones too', () => {
    const body = [
      'a = 1',
      'b = a +',
      'if a:',
      '    c = 2 2',
      'else:',
      '    c = 3',
      'd = x if y else x',
      ') = 4',
      'for i in pl.range(4):',
      '    e = i',
      '    f = [1,, 2]',
      '    g = 1',
      '    del e',
      'g = 2',
    ];
    let m: Module | undefined;
    const n = statementParses(() => {
      m = parseModuleIsolated(module([body]), 'm.py', UNCACHED);
    });
    const at = (i: number): number => HEADER_LINES + 1 + i;
    expect(problems(m!)).toEqual([
      [at(1), 'syntax-error', 'expected an expression'],
      [at(3), 'syntax-error', 'expected end of line'],
      [at(6), 'unsupported-construct', 'conditional expressions (x if c else y) are not supported inside a @pl.program'],
      [at(7), 'syntax-error', 'expected a statement'],
      [at(10), 'syntax-error', "expected an expression or ']'"],
      [at(12), 'unsupported-construct', "'del' statements are not supported inside a @pl.program"],
    ]);
    expect(n).toBeLessThanOrEqual(2 * body.length);
  });

  const good = ['a = 1', 'b = a + y', 'pl.add(x, x)', 'pass', 'x2: pl.Scalar[pl.INT32] = 1', 'return x'];
  const bad = ['z = y +', ') = 1', 'e = x if y else x', 'i = ...', 'del a', 'a += 1', 'f(*a)', 'q = {1, 2}', 'r = 1 2'];
  const line = fc.oneof(
    fc.constantFrom(...good).map((s) => ({ s, bad: false })),
    fc.constantFrom(...bad).map((s) => ({ s, bad: true })),
  );
  test.prop([fc.array(fc.array(line, { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 3 })], { numRuns: 60 })(
    'random bodies: one diagnostic on each erroneous line and none elsewhere; each statement parsed at most twice',
    (bodies) => {
      const text = module(bodies.map((b) => b.map((l) => l.s)));
      let m: Module | undefined;
      const n = statementParses(() => {
        m = parseModuleIsolated(text, 'm.py', UNCACHED);
      });
      const expected: number[] = [];
      let lineNo = 6;
      for (const b of bodies) {
        lineNo += 2;
        for (const l of b) {
          if (l.bad) expected.push(lineNo);
          lineNo++;
        }
        lineNo++;
      }
      expect(problems(m!).map((p) => p[0])).toEqual(expected);
      expect(n).toBeLessThanOrEqual(2 * bodies.reduce((k, b) => k + b.length, 0));
    },
  );
});
