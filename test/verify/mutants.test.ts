/**
 * The mutants of scripts/mutants.json (run by scripts/mutants.mjs for the table in
 * docs/testing.md) stay meaningful: at least three per shipped contract, covering a dropped
 * marker rule, a weakened safety condition and a changed op, each text found once in rules/.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PASSES } from '../../src/passes/registry.js';
import { MUTANTS } from './mutant-rules.js';

describe('scripts/mutants.json', () => {
  it('has at least three mutants of each shipped contract, of the three kinds', () => {
    for (const p of PASSES) {
      const ms = MUTANTS.filter((m) => m.contract === p.name);
      expect(ms.length, p.name).toBeGreaterThanOrEqual(3);
      expect(
        ms.some((m) => m.kind === 'drop a marker rule'),
        p.name,
      ).toBe(true);
      expect(
        ms.some((m) => m.kind === 'weaken a safety condition'),
        p.name,
      ).toBe(true);
      expect(
        ms.some((m) => /^change an op/.test(m.kind)),
        p.name,
      ).toBe(true);
    }
  });

  it('each mutant changes text that occurs exactly once in its rule file', () => {
    for (const m of MUTANTS) {
      const text = readFileSync(join('rules', m.file), 'utf8');
      expect(text.split(m.find).length, m.name).toBe(2);
      expect(m.replace, m.name).not.toBe(m.find);
    }
  });
});
