// bin/ptolog.js ends the process as soon as the command is done, unless output is still waiting to
// be written (a pipe on POSIX is written asynchronously) or something else keeps it alive.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tree } from './helpers.js';

const bin = resolve('bin/ptolog.js');

/** The example kernel with its remote write and wait repeated `n` times: a finding each, more output than a pipe holds. */
function manyFindings(n: number): string {
  const text = readFileSync('examples/ring_allreduce.py', 'utf8');
  const at = text.indexOf('            pld.tile.remote_store');
  const end = text.indexOf('            incoming =');
  return text.slice(0, at) + text.slice(at, end).repeat(n) + text.slice(end);
}

describe('the end of a CLI process', () => {
  it('writes the whole output into a pipe read only after the command is done, more than the pipe holds', () => {
    const file = join(tree({ 'k.py': manyFindings(150) }), 'k.py');
    const atOnce = spawnSync(process.execPath, [bin, 'audit', file], { encoding: 'utf8', maxBuffer: 1 << 26 });
    // (A reader that sleeps first: the CLI's last writes wait in its stream when its command is done.)
    const late = spawnSync('sh', ['-c', `'${process.execPath}' '${bin}' audit '${file}' | (sleep 3; cat)`], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    expect(atOnce.stdout.length).toBeGreaterThan(128 * 1024);
    expect(late.stdout).toBe(atOnce.stdout);
  });

  it('keeps the exit code of the command it ends early', () => {
    expect(runBin(['audit', 'specs/frontend/error_syntax.py']).code).toBe(2);
    expect(runBin(['audit', 'examples/ring_allreduce.py', '--fail-on', 'note']).code).toBe(1);
    expect(runBin(['--version']).code).toBe(0);
  });
});
