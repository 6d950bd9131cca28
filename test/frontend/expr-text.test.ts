import { describe, expect, it } from 'vitest';
import { isIdentifier, isOpName, parseExprText } from '../../src/frontend/expr-text.js';

describe('rule-supplied expression text', () => {
  it('parses DSL expressions with the real parser', () => {
    expect(parseExprText('pl.CachePolicy.BYPASS', 3)).toEqual({
      expr: { kind: 'Enum', module: 'pl', enum: 'CachePolicy', member: 'BYPASS', start: 3, end: 3 },
    });
    expect(parseExprText('1', 0)).toMatchObject({ expr: { kind: 'Int', value: 1 } });
    expect(parseExprText('[0, N]', 0)).toMatchObject({ expr: { kind: 'List' } });
    expect(parseExprText('x', 0)).toMatchObject({ expr: { kind: 'Name', id: 'x' } });
  });

  it('refuses text that is not one expression on one line', () => {
    for (const t of ['1)\nimport os\nx = (2', '1) + (2', 'a b', 'not a name', '', '  ', 'x  # c', 'lambda: 1', 'x = 1', '('.repeat(300)]) {
      expect(parseExprText(t, 0), t).toHaveProperty('error');
    }
  });

  it('knows names and op names', () => {
    expect(isIdentifier('cache')).toBe(true);
    expect(isIdentifier('not a name')).toBe(false);
    expect(isIdentifier('for')).toBe(false);
    expect(isIdentifier('1x')).toBe(false);
    expect(isOpName('system.fence')).toBe(true);
    expect(isOpName('pld.system.notify')).toBe(true);
    expect(isOpName('system.fence()')).toBe(false);
    expect(isOpName('')).toBe(false);
  });
});
