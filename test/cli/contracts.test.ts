import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { run } from './helpers.js';

function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-cli-'));
  const p = join(dir, name);
  copyFileSync(join('examples', name), p);
  return p;
}

describe('apply', () => {
  it('--write replaces the file atomically, and a second run changes nothing', async () => {
    const p = scratch('ring_allreduce.py');
    const before = readFileSync(p, 'utf8');
    expect((await run(['apply', '--write', p])).code).toBe(0);
    const after = readFileSync(p, 'utf8');
    expect(after).not.toBe(before);
    expect(after).toContain('pl.system.fence()');
    expect((await run(['apply', '--write', p])).code).toBe(0);
    expect(readFileSync(p, 'utf8')).toBe(after);
    expect(readdirSync(join(p, '..'))).toEqual(['ring_allreduce.py']);
  });

  it('--diff prints a unified diff of only the inserted lines', async () => {
    const r = await run(['apply', '--diff', 'examples/mesh_gather.py']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^--- a\/examples\/mesh_gather.py\n\+\+\+ b\/examples\/mesh_gather.py\n/);
    const changed = r.out.split('\n').filter((l) => /^[-+][^-+]/.test(l));
    expect(changed.every((l) => l.startsWith('+'))).toBe(true);
    expect(changed.length).toBe(3);
  });

  it('runs all passes in PyPTO order by default', async () => {
    const r = await run(['apply', 'examples/phase_fence.py']);
    expect(r.out).toContain('phase_fence_barrier_0_tid = pl.system.task_dummy(deps=[stage_a_done])');
    const c = await run(['apply', 'examples/cache_bypass.py']);
    expect(c.code).toBe(0);
    expect(c.err).toContain('CacheBypassUnsupported');
  });

  it('leaves the file untouched and exits 2 when the program has errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-cli-'));
    const p = join(dir, 'bad.py');
    const text = readFileSync('specs/cache_policy/err_bypass_written.py', 'utf8');
    writeFileSync(p, text);
    const r = await run(['apply', '--write', p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.py:\d+:\d+: error\[cache-policy-bypass-written\]/);
    expect(readFileSync(p, 'utf8')).toBe(text);
  });

  it('refuses an unknown pass with exit 2', async () => {
    const r = await run(['apply', '--pass', 'nope', 'examples/mesh_gather.py']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown pass nope');
  });

  it('reports a syntax error located, without a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-cli-'));
    const p = join(dir, 'broken.py');
    writeFileSync(p, 'import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        x = (1 +\n');
    const r = await run(['audit', p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/broken\.py:\d+:\d+: error\[/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('--write that cannot write keeps the original and exits 2 with a located message', async () => {
    const p = scratch('mesh_gather.py');
    // A directory where the temporary file would go makes the write fail, even for root.
    mkdirSync(join(p, '..', `.mesh_gather.py.${process.pid}.ptolog.tmp`));
    const before = readFileSync(p, 'utf8');
    const r = await run(['apply', '--write', p]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('error[write-failed]');
    expect(r.err).toContain('the original is unchanged');
    expect(readFileSync(p, 'utf8')).toBe(before);
  });

  it('an edit the rewriter cannot apply is a located error, not a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-cli-'));
    writeFileSync(join(dir, 'bogus.dl'), 'insert_after(S, 0, "bogus", 0, 0) :- wait(S).\n');
    const r = await run(['apply', '--rules', dir, 'examples/ring_allreduce.py']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ring_allreduce\.py:30:13: error\[bad-edit\]: .*marker "bogus"/);
    expect(r.err).not.toContain('internal error');
  });
});

describe('audit formats', () => {
  it('exit 0 and one line saying so when clean; nothing with --quiet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-cli-'));
    const p = join(dir, 'clean.py');
    writeFileSync(p, (await run(['apply', 'examples/ring_allreduce.py'])).out);
    const r = await run(['audit', '--pass', 'insert-comm-fence', p]);
    expect(r).toEqual({ code: 0, out: 'All checks passed (1 file audited).\n', err: '' });
    expect(await run(['audit', '-q', '--pass', 'insert-comm-fence', p])).toEqual({ code: 0, out: '', err: '' });
  });

  it('--format json lists located diagnostics', async () => {
    const r = await run(['audit', '--as-written', '--format', 'json', '--pass', 'insert-comm-fence', 'examples/ring_allreduce.py']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out) as { diagnostics: lib.Diagnostic[] & { code: string; line: number; column: number; file: string }[] };
    const d = doc.diagnostics.find((x) => x.code === 'missing-marker')!;
    expect(d).toMatchObject({ file: 'examples/ring_allreduce.py', line: 27, column: 13, severity: 'warning' });
  });

  it('--format sarif writes a SARIF 2.1.0 log with one rule per code', async () => {
    const r = await run(['audit', '--as-written', '--format', 'sarif', 'examples/ring_allreduce.py']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
      }[];
    };
    expect(log.version).toBe('2.1.0');
    const run0 = log.runs[0]!;
    expect(run0.tool.driver.rules.map((x) => x.id)).toEqual(['contract-violation', 'missing-marker']);
    expect(run0.results.length).toBeGreaterThan(0);
    expect(run0.results[0]!.locations[0]!.physicalLocation.region.startLine).toBeGreaterThan(0);
  });
});

describe('library entry point', () => {
  it('exposes the pipeline stages', () => {
    const m = lib.parseModule(readFileSync('examples/mesh_gather.py', 'utf8'), 'mesh.py');
    const a = lib.analyze(m, 'insert_comm_fence/insert_comm_fence.dl');
    const r = lib.rewrite(m, a.table, lib.readEdits(a.result));
    expect(r.applied).toBe(3);
    expect(lib.printModule(r.module)).toContain('pl.system.cacheinvalid()');
  });
});
