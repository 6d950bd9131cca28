import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tree } from './helpers.js';

/** The built CLI in a child process, asynchronously (several at once). */
function runBinAsync(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve('bin/ptolog.js'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => done({ code: code ?? -1, out, err }));
  });
}

const RULES = `// Extension example, as a user would write it.
#include "../insert_comm_fence/insert_comm_fence.dl"

wait_op("pld.system.ttest").
`;

describe('the CLI cache of compiled rules', () => {
  it('writes user rule files to PTOLOG_CACHE_DIR, none with --no-cache; the shipped rules come compiled with the build', () => {
    const dir = tree({ 'ext/x.dl': RULES.replace('../insert_comm_fence/', `${resolve('rules/insert_comm_fence')}/`) });
    const cache = join(dir, 'cache');
    const args = ['audit', '--rules', join(dir, 'ext'), 'rules/examples/ttest_is_a_wait.py'];
    const plain = runBin(['--no-cache', ...args], { env: { PTOLOG_CACHE_DIR: cache } });
    expect(plain.err).toBe('');
    expect(() => readdirSync(cache)).toThrow();
    expect(runBin(['audit', 'examples/ring_allreduce.py'], { env: { PTOLOG_CACHE_DIR: cache } }).code).toBe(0);
    expect(() => readdirSync(cache)).toThrow();
    const first = runBin(args, { env: { PTOLOG_CACHE_DIR: cache } });
    expect(readdirSync(cache).filter((n) => n.endsWith('.rules')).length).toBeGreaterThan(0);
    const second = runBin(args, { env: { PTOLOG_CACHE_DIR: cache } });
    expect([first.code, first.out, first.err]).toEqual([plain.code, plain.out, plain.err]);
    expect([second.code, second.out, second.err]).toEqual([plain.code, plain.out, plain.err]);
    // A changed rule file is compiled again.
    writeFileSync(join(dir, 'ext/x.dl'), `${readFileSync(join(dir, 'ext/x.dl'), 'utf8')}\nwait_op("pld.system.nothing").\n`);
    const changed = runBin(args, { env: { PTOLOG_CACHE_DIR: cache } });
    expect([changed.code, changed.out, changed.err]).toEqual([plain.code, plain.out, plain.err]);
    writeFileSync(join(dir, 'ext/x.dl'), `${RULES}\nwait_op(1).\n`);
    const broken = runBin(args, { env: { PTOLOG_CACHE_DIR: cache } });
    expect(broken.code).toBe(2);
  });

  it('processes writing the same entry at once all give the right result and leave one whole entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-cache-cli-'));
    const cache = join(dir, 'cache');
    writeFileSync(join(dir, 'x.dl'), RULES.replace('../insert_comm_fence/', `${resolve('rules/insert_comm_fence')}/`));
    const args = ['audit', '--rules', join(dir, 'x.dl'), 'rules/examples/ttest_is_a_wait.py'];
    const expected = runBin(['--no-cache', ...args]);
    const runs = await Promise.all(Array.from({ length: 4 }, () => runBinAsync(args, { PTOLOG_CACHE_DIR: cache })));
    for (const r of runs) expect([r.code, r.out, r.err]).toEqual([expected.code, expected.out, expected.err]);
    // No temporary file is left, and what is there is read back right.
    expect(readdirSync(cache).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const after = runBin(args, { env: { PTOLOG_CACHE_DIR: cache } });
    expect([after.code, after.out, after.err]).toEqual([expected.code, expected.out, expected.err]);
  });

  it("--jobs workers given the main thread's compiled rules (--no-cache) print what one thread prints", () => {
    const files = ['examples/ring_allreduce.py', 'rules/examples/ttest_is_a_wait.py', 'examples/mesh_gather.py'];
    const one = runBin(['audit', '--jobs', '1', ...files]);
    const two = runBin(['--no-cache', 'audit', '--jobs', '2', ...files]);
    expect([two.code, two.out, two.err]).toEqual([one.code, one.out, one.err]);
  });
});
