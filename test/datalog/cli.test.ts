import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as cli } from '../cli/helpers.js';

function setup(): { dir: string; rules: string; facts: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-dl-'));
  const rules = join(dir, 'tc.dl');
  writeFileSync(
    rules,
    '.decl edge(x: number, y: symbol)\n.input edge\n.decl path(x: number, y: symbol)\n.output path\n.printsize path\npath(X, Y) :- edge(X, Y).\n',
  );
  const facts = join(dir, 'facts');
  mkdirSync(facts);
  writeFileSync(join(facts, 'edge.facts'), '1\tb\n2\ta b\n');
  return { dir, rules, facts };
}

describe('datalog CLI', () => {
  it('run reads .facts and writes sorted tab-separated .csv, prints sizes', async () => {
    const { dir, rules, facts } = setup();
    const outDir = join(dir, 'out');
    const r = await cli(['run', rules, '-F', facts, '-D', outDir]);
    expect(r).toEqual({ code: 0, out: 'path\t2\n', err: '' });
    expect(readFileSync(join(outDir, 'path.csv'), 'utf8')).toBe('1\tb\n2\ta b\n');
  });

  it('explain-tuple, --why-not and why-not', async () => {
    const { rules, facts } = setup();
    const e = await cli(['explain-tuple', rules, '-F', facts, 'path(1, "b")']);
    expect(e.code).toBe(0);
    expect(e.out).toContain('path(1, "b")  [rule');
    const absent = await cli(['explain-tuple', rules, '-F', facts, 'path(1, c)']);
    expect(absent.code).toBe(1);
    expect(absent.out).toContain('path(1, "c") is not derived');
    const w = await cli(['why-not', rules, '-F', facts, 'path(1,c)']);
    expect(w.code).toBe(0);
    expect((await cli(['explain-tuple', '--why-not', rules, '-F', facts, 'path(1,c)'])).out).toBe(w.out);
    const bad = await cli(['why-not', rules, '-F', facts, 'path(x, c)']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('bad-tuple');
  });

  it('check-rules: ok, warnings, and errors with exit 2', async () => {
    const { rules, dir } = setup();
    expect(await cli(['check-rules', rules])).toEqual({ code: 0, out: 'ok: 2 relations, 1 rules, 2 strata, 0 warnings\n', err: '' });
    const broken = join(dir, 'broken.dl');
    writeFileSync(broken, '.decl a(x: number)\na(X) :- b(X).\n');
    const r = await cli(['check-rules', broken]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('broken.dl:2:9: error[undeclared-relation]');
    expect(r.err).not.toMatch(/at .*\.ts:/);
  });

  it('run --timeout stops a long join of one rule: a located evaluation-timeout, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-dl-'));
    const rules = join(dir, 'cube.dl');
    const rows = Array.from({ length: 300 }, (_, i) => `v(${i}).`).join(' ');
    writeFileSync(
      rules,
      `.decl v(x: number)\n${rows}\n.decl cube(x: number, y: number, z: number)\n.printsize cube\ncube(X, Y, Z) :- v(X), v(Y), v(Z).\n`,
    );
    const r = await cli(['run', rules, '--timeout', '0.3']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cube.dl:3:7: error[evaluation-timeout]: rule evaluation did not finish within 0.3 s');
  });
});
