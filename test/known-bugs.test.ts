/**
 * Known bugs, each pinned as a test that is expected to fail (`it.fails`) with the issue it
 * belongs to. When a fix lands the test starts passing, vitest reports it as a failure, and
 * the case moves to the goldens.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';

/** Runs the CLI in-process: exit code, stdout, stderr. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

describe('known bugs', () => {
  // Issue #10 ("32-bit arithmetic", the engine's part: numbers in facts and rules must be 64-bit
  // signed, as PyPTO's int64_t). N·M overflows for N = M = 65536: PyPTO compresses.
  it.fails('#10: -D BRANCHES=65536 on examples/phase_fence.py compresses (N·M in 64 bits)', async () => {
    const r = await cli(['apply', '--pass', 'expand-manual-phase-fence', '-D', 'BRANCHES=65536', 'examples/phase_fence.py']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('phase_fence_barrier_0_tid = pl.system.task_dummy(deps=[stage_a_done])');
  });

  // A trip count ≥ 2³¹ stops every pass with an unlocated bad-fact error.
  it.fails('#10: a trip count of 2³² is read (-D NRANKS=4294967296 on examples/ring_allreduce.py)', async () => {
    const r = await cli(['audit', '-D', 'NRANKS=4294967296', 'examples/ring_allreduce.py']);
    expect(r.err).not.toContain('bad-fact');
    expect(r.code).toBe(0);
  });

  // The control: within 32 bits both work today.
  it('#10 control: -D BRANCHES=8 compresses and -D NRANKS=8 is audited', async () => {
    const a = await cli(['apply', '--pass', 'expand-manual-phase-fence', '-D', 'BRANCHES=8', 'examples/phase_fence.py']);
    expect(a.out).toContain('phase_fence_barrier_0_tid = pl.system.task_dummy(deps=[stage_a_done])');
    const b = await cli(['audit', '-D', 'NRANKS=8', 'examples/ring_allreduce.py']);
    expect(b.err).not.toContain('bad-fact');
    expect(b.code).toBe(0);
  });
});
