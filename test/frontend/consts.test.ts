import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { evalConst } from '../../src/ir/consts.js';
import type { ConstValue, Expr } from '../../src/ir/nodes.js';
import { bodyOf, parseBody } from './helpers.js';

const expr = (s: string): Expr => {
  const b = bodyOf(parseBody(`v = ${s}`))[0]!;
  return (b as { value: Expr }).value;
};

describe('evalConst', () => {
  const c = new Map<string, number | number[]>([
    ['N', 8],
    ['S', [1, 2]],
  ]);
  it.each([
    ['1 + 2 * 3', 7],
    ['N - 1', 7],
    ['-N', -8],
    ['2 ** 10', 1024],
    ['-7 // 2', -4],
    ['-7 % 3', 2],
    ['7 % -3', -2],
    ['(N + 1) * (N - 1)', 63],
    ['0x10', 16],
  ])('%s = %d', (s, v) => {
    expect(evalConst(expr(s), c)).toBe(v);
  });
  it.each(['M', 'S', 'N / 2', '1 // 0', '5 % 0', '2 ** -1', 'f(1)', '1.5', 'not N', '2 ** 100'])('%s is symbolic', (s) => {
    expect(evalConst(expr(s), c)).toBeUndefined();
  });
});

describe('module constants in evaluation order (issue 34 item 6)', () => {
  const prog = (name: string): string =>
    `@pl.program\nclass ${name}:\n    @pl.function\n    def f(self, x: pl.Tensor[[8], pl.FP32]):\n        for i in pl.range(BRANCHES):\n            pass\n        return x\n\n`;
  const at = (text: string): (ConstValue | undefined)[] => {
    const m = parseModule(`import pypto.language as pl\n${text}`, 'c.py');
    return m.programs.map((p) => (p.constants ?? m.constants).get('BRANCHES'));
  };

  it('judges each program with the value bound at its decorator', () => {
    expect(at(`BRANCHES = 1\n${prog('A')}BRANCHES = 8\n${prog('B')}`)).toEqual([1, 8]);
  });

  it('reads an augmented assignment', () => {
    expect(at(`BRANCHES = 1\nBRANCHES += 7\n${prog('A')}BRANCHES *= 2\n${prog('B')}`)).toEqual([8, 16]);
  });

  it.each([
    ['a for target', 'for BRANCHES in range(3):\n    pass\n'],
    ['an if', 'if DEBUG:\n    BRANCHES = 2\n'],
    ['a one-line if', 'if DEBUG: BRANCHES = 2\n'],
    ['a tuple assignment', 'BRANCHES, OTHER = 2, 3\n'],
    ['a chained assignment', 'OTHER = BRANCHES = 2\n'],
    ['an import', 'from config import BRANCHES\n'],
    ['an import as', 'from config import X as BRANCHES\n'],
    ['a with target', 'with open("x") as BRANCHES:\n    pass\n'],
    ['a def', 'def BRANCHES():\n    pass\n'],
    ['an augmented assignment of an unknown value', 'BRANCHES += f()\n'],
  ])('rebinding through %s makes the value unknown', (_what, rebind) => {
    expect(at(`BRANCHES = 1\n${rebind}${prog('A')}`)).toEqual([undefined]);
  });

  it('a builder function binding the name does not change the module constant', () => {
    expect(at(`BRANCHES = 4\ndef build():\n    BRANCHES = 2\n    return 1\n\n${prog('A')}`)).toEqual([4]);
  });
});
