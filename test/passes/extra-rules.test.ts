import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extrasFor, readExtraRules } from '../../src/passes/extra-rules.js';
import { PASSES, passByName } from '../../src/passes/registry.js';
import { run } from '../cli/helpers.js';

function rulesDirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-rules-'));
  for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
  return dir;
}

describe('--rules routing', () => {
  it('a file that includes a pass extends that pass only', () => {
    const extras = readExtraRules(['rules/examples'], PASSES);
    expect(extrasFor(passByName('insert-comm-fence')!, extras)).toHaveLength(2);
    expect(extrasFor(passByName('cache-policy')!, extras)).toHaveLength(0);
  });

  it('a file without includes extends the passes that declare what it uses', async () => {
    const dir = rulesDirWith({ 'ttest.dl': 'wait_op("pld.system.ttest").\n' });
    const extras = readExtraRules([dir], PASSES);
    // The op relations (rules/ops.dl, through lib.dl) are read by every pass.
    expect(PASSES.filter((p) => extrasFor(p, extras).length > 0).map((p) => p.name)).toEqual(PASSES.map((p) => p.name));
    const r = await run(['apply', '--rules', dir, 'specs/extension/ttest_and_put_signal.py']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/pld\.system\.ttest\(sig, \[0, 0\], 1\)\n\s+pl\.system\.cacheinvalid\(\)/);
  });

  it('a finding an extension derives in every pass it extends is reported once', async () => {
    const dir = rulesDirWith({
      'every.dl': 'finding("every-pass-pass", "warning", S, "a pass statement") :- stmt(S, "Pass", _, _).\n',
      'diagnostics.toml':
        '[every-pass-pass]\nseverity = "warning"\nsummary = "a pass statement"\nhelp = "a pass statement"\nexample = "pass"\n',
    });
    expect(PASSES.filter((p) => extrasFor(p, readExtraRules([dir], PASSES)).length > 0).length).toBeGreaterThan(1);
    const kernel = join(dir, 'k.py');
    writeFileSync(
      kernel,
      'import pypto.language as pl\n\n\n@pl.program\nclass K:\n    @pl.function(type=pl.FunctionType.InCore)\n    def f(self):\n        pass\n',
    );
    const r = await run(['audit', '--rules', dir, kernel]);
    expect(r.code).toBe(1);
    expect(r.out.match(/warning\[every-pass-pass\]/g)).toHaveLength(1);
  });

  it('a file no pass can take is reported with located errors, exit 2', async () => {
    const dir = rulesDirWith({ 'mixed.dl': 'sequential_loop_kind("pipeline2").\nimpure_leaf_kind("x").\n' });
    const r = await run(['apply', '--rules', dir, 'examples/ring_allreduce.py']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/mixed\.dl:\d+:1: error\[undeclared-relation\]/);
  });

  it('a type error in an extension is located in the extension', async () => {
    const dir = rulesDirWith({ 'bad.dl': 'wait_op(1).\n' });
    const r = await run(['audit', '--rules', dir, 'examples/ring_allreduce.py']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.dl:1:9: error\[type-mismatch\]/);
  });
});
