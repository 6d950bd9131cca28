// What the CLI prints: a closed stdout ends a run quietly, graph edges, diff headers git applies,
// fixes and the apply summary, fmt --check's advice.

import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, runBin, tree } from './helpers.js';

describe('a closed stdout (| head) ends the run quietly', () => {
  it('exits without a stack trace when the reader goes away', async () => {
    const child = spawn(process.execPath, [resolve('bin/ptolog.js'), 'explain', 'examples/phase_fence.py:41'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the first write
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(err).not.toMatch(/EPIPE|Error:/);
    expect(code).toBe(0);
  });
});

describe('graph draws every dependency', () => {
  it('counts the edges of launches with several deps', async () => {
    const r = await run(['graph', 'specs/expand_manual_phase_fence/multiple_arrays.py']);
    expect(r.out).toContain('label="32 dependency edges"');
    for (const m of r.out.matchAll(/label="line \d+: ([^"\\]*)/g)) expect(m[1]).toMatch(/(\)|\.\.\.)$/);
  });
});

describe('apply --diff with an absolute path', () => {
  it('has headers git apply accepts', async () => {
    const dir = tree({ 'k.py': '@examples/ring_allreduce.py' });
    const p = join(dir, 'k.py');
    const r = await run(['apply', '--diff', p]);
    const rel = p.slice(1);
    expect(r.out).toMatch(new RegExp(`^--- a/${rel.replace(/[.]/g, '\\.')}\\n\\+\\+\\+ b/`));
    writeFileSync(join(dir, 'p.diff'), r.out);
    const g = spawnSync('git', ['apply', '--check', join(dir, 'p.diff')], { cwd: '/', encoding: 'utf8' });
    expect(g.stderr).toBe('');
    expect(g.status).toBe(0);
  });
});

describe('fixes and the apply summary', () => {
  it('a contract-violation does not repeat the missing-marker fix', async () => {
    const r = await run(['audit', '--format', 'json', 'examples/ring_allreduce.py']);
    const ds = JSON.parse(r.out).diagnostics as { code: string; fix?: string }[];
    expect(ds.filter((d) => d.code === 'contract-violation').every((d) => d.fix === undefined)).toBe(true);
    expect(ds.filter((d) => d.code === 'missing-marker').every((d) => d.fix !== undefined)).toBe(true);
  });
  it('apply --write says what it did', async () => {
    const dir = tree({ 'a.py': '@examples/ring_allreduce.py', 'b.py': '@examples/mesh_gather.py', 'c.py': '@examples/cache_bypass.py' });
    const r = await run(['apply', '--write', '--pass', 'insert-comm-fence', dir]);
    expect(r.code).toBe(0);
    expect(r.err).toContain('ptolog: applied 5 edits in 2 files, 1 file unchanged.');
  });
});

describe('fmt --check does not suggest the comment-dropping fmt', () => {
  it('says how to see what fmt would change', async () => {
    const r = await run(['fmt', '--check', 'examples/ring_allreduce.py']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('examples/ring_allreduce.py: not canonical (ptolog fmt --diff shows what would change)');
  });
});

void runBin;
