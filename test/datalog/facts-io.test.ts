// Reading `.facts` directories: only the inputs evaluation reads, exact integers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, readFactsDir, relationsRead } from '../../src/datalog/index.js';
import { errorsOf, prog } from './helpers.js';

const RULES = `
.decl used(x: number)
.input used
.decl unused(x: number)
.input unused
.decl out(x: number)
out(X) :- used(X).
.output out
`;

describe('readFactsDir', () => {
  it('reads only the input relations the outputs depend on when given relationsRead', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-facts-'));
    writeFileSync(join(dir, 'used.facts'), '1\n-2\n+3\n');
    // unused.facts is absent and would be malformed: neither matters when it is not read.
    const program = prog(RULES);
    const db = program.newDatabase();
    readFactsDir(db, dir, relationsRead(program));
    expect(relationsRead(program).has('unused')).toBe(false);
    expect(evaluate(program, db).tuples('out')).toEqual([[-2], [1], [3]]);
  });

  it('reads (and requires) every input relation without a selection', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-facts-'));
    writeFileSync(join(dir, 'used.facts'), '1\n');
    const program = prog(RULES);
    expect(errorsOf(() => readFactsDir(program.newDatabase(), dir))).toEqual([
      expect.stringContaining('missing-facts: cannot read the facts of the input relation unused'),
    ]);
  });

  it('rejects a number column that is not a decimal integer, with its line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-facts-'));
    for (const bad of ['1.5', '-', '', '12a', '0x10']) {
      writeFileSync(join(dir, 'used.facts'), `7\n${bad}\t\n`);
      const program = prog(RULES);
      const errs = errorsOf(() => readFactsDir(program.newDatabase(), dir, new Set(['used'])));
      expect(errs.length, bad).toBe(1);
      expect(errs[0]).toMatch(/used\.facts:2 bad-fact/);
    }
  });
});
