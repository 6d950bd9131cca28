// Reading `.facts` directories: only the inputs evaluation reads, exact integers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test as fcTest } from '@fast-check/vitest';
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

describe('readFactsFile reads bytes as the lines and columns they spell', () => {
  const RULES2 =
    '.decl r(a: number, s: symbol, b: number)\n.input r\n.decl o(a: number, s: symbol, b: number)\no(A, S, B) :- r(A, S, B).\n.output o\n';
  const num = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.integer(),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((b) => (b >= -(2n ** 53n) + 1n && b <= 2n ** 53n - 1n ? Number(b) : b)),
  );
  const sym = fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => s.replace(/[\t\n\r]/g, '_'));

  fcTest.prop([fc.array(fc.tuple(num, sym, num), { maxLength: 40 }), fc.boolean(), fc.boolean()], { numRuns: 100 })(
    'the tuples written (LF or CRLF, with or without a final newline) are the tuples read',
    (rows, crlf, finalNewline) => {
      const dir = mkdtempSync(join(tmpdir(), 'ptolog-facts-'));
      const eol = crlf ? '\r\n' : '\n';
      const text = rows.map((r) => r.map(String).join('\t')).join(eol);
      writeFileSync(join(dir, 'r.facts'), rows.length > 0 && finalNewline ? text + eol : text);
      const program = prog(RULES2);
      const db = program.newDatabase();
      readFactsDir(db, dir);
      const want = program.newDatabase();
      want.insertMany('r', rows);
      expect(evaluate(program, db).tuples('o')).toEqual(evaluate(program, want).tuples('o'));
    },
  );

  it('reads lines across its 1 MiB reads and a line longer than a read, and names the line of an error after them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-facts-'));
    const long = 'x'.repeat(3 << 20);
    const lines = Array.from({ length: 150_000 }, (_, i) => `${i - 75_000}\ts${i % 7}\t${i}`);
    lines.splice(100_000, 0, `1\t${long}\t2`);
    writeFileSync(join(dir, 'r.facts'), `${lines.join('\n')}\n`);
    const program = prog(RULES2);
    const db = program.newDatabase();
    readFactsDir(db, dir);
    const out = evaluate(program, db);
    expect(out.size('o')).toBe(150_001);
    expect(out.contains('o', [1, long, 2])).toBe(true);
    expect(out.contains('o', [74_999, 's3', 149_999])).toBe(true);
    writeFileSync(join(dir, 'r.facts'), `${lines.join('\n')}\n1\tz\n`);
    expect(errorsOf(() => readFactsDir(prog(RULES2).newDatabase(), dir))).toEqual([
      expect.stringMatching(/r\.facts:150002 bad-fact: expected 3 tab-separated columns for r but found 2/),
    ]);
    writeFileSync(join(dir, 'r.facts'), '1\ta\t2\t3\n');
    expect(errorsOf(() => readFactsDir(prog(RULES2).newDatabase(), dir))).toEqual([
      expect.stringMatching(/r\.facts:1 bad-fact: expected 3 tab-separated columns for r but found 4/),
    ]);
    writeFileSync(join(dir, 'r.facts'), '1\ta\t99999999999999999999\n');
    expect(errorsOf(() => readFactsDir(prog(RULES2).newDatabase(), dir))).toEqual([
      expect.stringMatching(/r\.facts:1 bad-fact: the number 99999999999999999999 does not fit in 64 bits/),
    ]);
  });
});
