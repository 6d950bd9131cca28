/**
 * What apply prints and writes keeps every byte of the file, whatever the path or the
 * interruption: non-UTF-8 bytes on stdout, in --diff and through standard input; diff headers
 * that `git apply` takes from the repository root; hard-linked writes interrupted by kill -9
 * (the next run finds the complete result even when nothing is left to change; a write still
 * running is not an interrupted one); temporary files of killed writes removed.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffPath } from '../../src/cli/file-task.js';
import { run, tree } from './helpers.js';

const KERNEL = readFileSync('examples/ring_allreduce.py');
const LATIN1 = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from(' (Latin-1)\n'), KERNEL]);

/** Runs the CLI in-process, capturing stdout as bytes. */
async function runBytes(args: string[], stdin?: Uint8Array): Promise<{ code: number; bytes: Buffer; err: string }> {
  const chunks: Buffer[] = [];
  const r = await run(args, {
    stdout: (t) => chunks.push(Buffer.from(t, 'utf8')),
    stdoutBytes: (b) => chunks.push(Buffer.from(b)),
    ...(stdin ? { readStdin: async () => stdin } : {}),
  });
  return { code: r.code, bytes: Buffer.concat(chunks), err: r.err };
}

const e9 = (b: Buffer): boolean => b.includes(Buffer.from([0x66, 0xe9, 0x20])); // "f\xe9 ": one byte
const mangled = (b: Buffer): boolean => b.includes(Buffer.from([0xc3, 0xa9])) || b.includes(Buffer.from([0xef, 0xbf, 0xbd]));

describe('non-UTF-8 bytes', () => {
  it('stay one byte on stdout', async () => {
    const d = tree({});
    writeFileSync(join(d, 'k.py'), LATIN1);
    const r = await runBytes(['apply', join(d, 'k.py')]);
    expect(r.code).toBe(0);
    expect(e9(r.bytes) && !mangled(r.bytes)).toBe(true);
    expect(r.bytes.toString('latin1')).toContain('pl.system.fence()');
  });

  it('stay one byte through standard input', async () => {
    const r = await runBytes(['apply', '-'], LATIN1);
    expect(r.code).toBe(0);
    expect(e9(r.bytes) && !mangled(r.bytes)).toBe(true);
  });

  it('stay one byte in --diff, which git apply takes', async () => {
    const d = tree({});
    // A Latin-1 comment right after the store the fence follows: inside the diff's context.
    const lines = KERNEL.toString('utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('remote_store')) + 1;
    const before = Buffer.from(`${lines.slice(0, at).join('\n')}\n`);
    const after = Buffer.from(`\n${lines.slice(at).join('\n')}`);
    writeFileSync(
      join(d, 'k.py'),
      Buffer.concat([before, Buffer.from(`${' '.repeat(lines[at - 1]!.search(/\S/))}# caf`), Buffer.from([0xe9, 0x20]), after]),
    );
    spawnSync('git', ['init', '-q', d]);
    const r = await runBytes(['apply', '--diff', join(d, 'k.py')]);
    expect(e9(r.bytes) && !mangled(r.bytes)).toBe(true);
    writeFileSync(join(d, 'fix.patch'), r.bytes);
    const g = spawnSync('git', ['apply', 'fix.patch'], { cwd: d, encoding: 'utf8' });
    expect(g.stderr).toBe('');
    expect(readFileSync(join(d, 'k.py')).toString('latin1')).toContain('pl.system.fence()');
  });
});

describe('--diff headers', () => {
  it('are relative to the repository root, so git apply works there, whatever path was given', async () => {
    const d = tree({ 'ex/k.py': '@examples/ring_allreduce.py' });
    spawnSync('git', ['init', '-q', d]);
    mkdirSync(join(d, 'sub'));
    expect(diffPath('../ex/k.py', join(d, 'sub'))).toBe('ex/k.py');
    expect(diffPath(join(d, 'ex/k.py'), '/')).toBe('ex/k.py');
    const r = await run(['apply', '--diff', join(d, 'ex/k.py')]);
    expect(r.out).toMatch(/^--- a\/ex\/k\.py\n\+\+\+ b\/ex\/k\.py$/m);
    writeFileSync(join(d, 'fix.patch'), r.out);
    expect(spawnSync('git', ['apply', 'fix.patch'], { cwd: d, encoding: 'utf8' }).stderr).toBe('');
  });

  it('outside a repository: relative to the working directory, else the absolute path without its /', () => {
    const d = tree({ 'k.py': 'x\n' });
    expect(diffPath(join(d, 'k.py'), d)).toBe('k.py');
    expect(diffPath(join(d, 'k.py'), resolve(d, '..', 'elsewhere'))).toBe(join(d, 'k.py').slice(1));
  });
});

describe('hard-linked --write recovery', () => {
  it('finds an interrupted write even when there is nothing left to change', async () => {
    const d = tree({ 'k.py': '@examples/ring_allreduce.py' });
    const p = join(d, 'k.py');
    linkSync(p, join(d, 'other.py'));
    expect((await run(['apply', '--write', p])).code).toBe(0);
    // A write killed while copying in place: the complete result is left beside the file (a dead PID).
    writeFileSync(join(d, '.k.py.999999999.ptolog.result'), readFileSync(p));
    const r = await run(['apply', '--write', p]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('an earlier write of');
  });

  it("another run's write still in progress is not an interrupted one", async () => {
    const d = tree({ 'k.py': '@examples/ring_allreduce.py' });
    const p = join(d, 'k.py');
    linkSync(p, join(d, 'other.py'));
    writeFileSync(join(d, `.k.py.${process.ppid}.ptolog.result`), 'in progress');
    const r = await run(['apply', '--write', p]);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(p, 'utf8')).toContain('pl.system.fence()');
  });

  it('removes the temporary files of writes killed before their rename', async () => {
    const d = tree({ 'k.py': '@examples/ring_allreduce.py' });
    const p = join(d, 'k.py');
    writeFileSync(join(d, '.k.py.999999999.ptolog.tmp'), 'partial');
    writeFileSync(join(d, `.k.py.${process.ppid}.ptolog.tmp`), 'another run, still writing');
    expect((await run(['apply', '--write', p])).code).toBe(0);
    expect(readdirSync(d).sort()).toEqual([`.k.py.${process.ppid}.ptolog.tmp`, 'k.py']);
    expect(existsSync(join(d, '.k.py.999999999.ptolog.tmp'))).toBe(false);
  });
});
