import { describe, expect, it } from 'vitest';
import { evalConst } from '../../src/ir/consts.js';
import { parseBody, bodyOf } from './helpers.js';
import type { Expr } from '../../src/ir/nodes.js';

const expr = (s: string): Expr => {
  const b = bodyOf(parseBody(`v = ${s}`))[0]!;
  return (b as { value: Expr }).value;
};

describe('evalConst', () => {
  const c = new Map<string, number | number[]>([['N', 8], ['S', [1, 2]]]);
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
