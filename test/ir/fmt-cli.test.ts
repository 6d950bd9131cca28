/** `ptolog fmt` end to end: several files, --check, -D, errors; fmt output re-parses to the same IR. */

import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModule, readModule } from '../../src/frontend/index.js';
import { stripSpans, structurallyEqual } from '../../src/ir/equal.js';
import { printModule } from '../../src/ir/print.js';
import { run } from '../cli/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ptolog-fmt-'));
const canonical = [
  'import pypto.language as pl',
  '',
  '',
  '@pl.program',
  'class P:',
  '    @pl.function(type=pl.FunctionType.InCore)',
  '    def k(self, x: pl.Tensor[[4], pl.FP32]):',
  '        t = pl.tile.load(x, [0], [4])',
  '',
].join('\n');
const a = join(dir, 'a.py');
const b = join(dir, 'b.py');
const empty = join(dir, 'empty.py');
writeFileSync(a, canonical);
writeFileSync(b, canonical.replace('pl.tile.load', 'pl.load'));
writeFileSync(empty, 'x = 1\n');

describe('ptolog fmt', () => {
  it('prints one file as is', async () => {
    const r = await run(['fmt', b]);
    expect(r).toEqual({ code: 0, out: canonical, err: '' });
  });
  it('prints several files with headers', async () => {
    const r = await run(['fmt', a, empty, b]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`# ==> ${a} <==\n${canonical}\n# ==> ${empty} <==\n\n# ==> ${b} <==\n${canonical}`);
  });
  it('--check', async () => {
    expect(await run(['fmt', '--check', a, empty])).toEqual({ code: 0, out: '', err: '' });
    const r = await run(['fmt', '--check', a, b]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(`${b}: not canonical (ptolog fmt --diff shows what would change)\n`);
  });
  it('a missing file is exit 2 with a diagnostic', async () => {
    const r = await run(['fmt', join(dir, 'missing.py')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot read');
  });
});

describe('fmt on every golden input and example', () => {
  const inputs: string[] = [];
  for (const d of ['specs/frontend', 'specs/examples', 'examples']) {
    try {
      for (const n of readdirSync(d)) if (n.endsWith('.py') && !n.startsWith('error_')) inputs.push(join(d, n));
    } catch {
      // a folder that is not there (e.g. shared/ outside this checkout)
    }
  }
  for (const path of inputs) {
    it(`${path}: round-trips and is idempotent`, () => {
      const m = readModule(path);
      const once = printModule(m);
      const m2 = parseModule(once, `${path}.fmt`);
      if (!structurallyEqual(m2.programs, m.programs)) expect(stripSpans(m2.programs)).toEqual(stripSpans(m.programs));
      expect(printModule(m2)).toBe(once);
      // constants the programs use resolve the same way
      for (const [k, v] of m2.constants) expect(m.constants.get(k)).toEqual(v);
    });
  }
});
