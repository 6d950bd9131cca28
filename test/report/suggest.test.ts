import { test as fcTest, it } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { loadProgram } from '../../src/datalog/index.js';
import type { DiagnosticError } from '../../src/report/diagnostic.js';
import { closestName, editDistance, editDistanceWithin } from '../../src/report/suggest.js';

describe('did you mean', () => {
  fcTest.prop([
    fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 14 }),
    fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 14 }),
    fc.integer({ min: 0, max: 6 }),
  ])('the banded distance is the distance, capped at max + 1', (a, b, max) => {
    expect(editDistanceWithin(a, b, max)).toBe(Math.min(editDistance(a, b), max + 1));
  });

  it('suggests as before for short names', () => {
    expect(closestName('pathh', ['path', 'edge'])).toBe('path');
    expect(closestName('xyz', ['path', 'edge'])).toBeUndefined();
  });

  it('a 40,000-character relation name is answered at once (not quadratically in its length)', () => {
    const long = 'r'.repeat(40_000);
    const near = `${'r'.repeat(39_999)}s`;
    const text = `.decl ${near}(x: number)\n.decl a(x: number)\n.output a\na(X) :- ${long}(X).\n`;
    let message = '';
    try {
      loadProgram([{ path: 'long.dl', text }]);
    } catch (e) {
      message = (e as DiagnosticError).diagnostics.map((d) => `${d.message} ${d.fix ?? ''}`).join('\n');
    }
    expect(message).toContain('did you mean');
    expect(closestName(long, [near, 'q'.repeat(40_000)])).toBe(near);
  });
});
