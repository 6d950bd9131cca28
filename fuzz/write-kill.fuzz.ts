/**
 * `apply --write` under `kill -9` at a random moment never leaves a partial file: the file holds
 * the original or the whole result. A file with several hard links (copied in place) may be cut
 * short, but then the whole result is in `.NAME.PID.ptolog.result` beside it and the next
 * `apply --write` refuses to run, naming it; the temporary file of a killed write is removed by
 * the next write. Runs the built CLI (`npm run build` first). PTOLOG_FUZZ_RUNS sets the runs.
 */

import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const BIN = resolve('bin/ptolog.js');
const KERNEL = resolve('examples/ring_allreduce.py');
const RUNS = Number(process.env['PTOLOG_FUZZ_RUNS'] ?? 20);

/** The result of `apply` on the kernel (what a finished --write leaves). */
function expectedResult(): string {
  const r = spawnSync(process.execPath, [BIN, 'apply', KERNEL], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`apply failed: ${r.stderr}`);
  return r.stdout;
}

/** Starts `apply --write FILE`, kills it with SIGKILL after `delayMs`, and waits for it to end. */
function killedWrite(file: string, delayMs: number): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'apply', '--write', '--quiet', file], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', () => {
      clearTimeout(timer);
      done();
    });
  });
}

describe('apply --write under kill -9', () => {
  const original = readFileSync(KERNEL, 'utf8');
  const result = expectedResult();

  it('never leaves a partial file', async () => {
    expect(result).not.toBe(original);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2500 }), fc.boolean(), async (delayMs, hardLinked) => {
        const dir = mkdtempSync(join(tmpdir(), 'ptolog-kill-'));
        try {
          const file = join(dir, 'k.py');
          copyFileSync(KERNEL, file);
          if (hardLinked) linkSync(file, join(dir, 'other.py'));
          await killedWrite(file, delayMs);
          const now = readFileSync(file, 'utf8');
          const results = readdirSync(dir).filter((n) => n.endsWith('.ptolog.result'));
          if (results.length > 0) {
            // Killed while copying in place: the whole result is beside the file, and the next run says so.
            expect(hardLinked).toBe(true);
            expect(readFileSync(join(dir, results[0]!), 'utf8')).toBe(result);
            const next = spawnSync(process.execPath, [BIN, 'apply', '--write', file], { encoding: 'utf8' });
            expect(next.status).toBe(2);
            expect(next.stderr).toContain(results[0]!);
          } else {
            expect([original, result]).toContain(now);
            // The next write finishes the job and leaves nothing behind.
            const next = spawnSync(process.execPath, [BIN, 'apply', '--write', '--quiet', file], { encoding: 'utf8' });
            expect(next.status, next.stderr).toBe(0);
            expect(readFileSync(file, 'utf8')).toBe(result);
            expect(readdirSync(dir).sort()).toEqual(hardLinked ? ['k.py', 'other.py'] : ['k.py']);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: RUNS },
    );
  });
});
