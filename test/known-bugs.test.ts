/**
 * Known bugs, each pinned as a test that is expected to fail (`it.fails`) with the issue it
 * belongs to. When a fix lands the test starts passing, vitest reports it as a failure, and
 * the case moves to the goldens.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { RuleSession } from '../src/passes/rule-session.js';

// The rule programs loaded by earlier runs of the CLI in this file, reused (as one process's runs would).
const ruleSession = new RuleSession();

/** Runs the CLI in-process: exit code, stdout, stderr. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), ruleSession });
  return { code, out, err };
}

describe('known bugs', () => {
  // Issue #10's "32-bit arithmetic" is fixed (64-bit numbers in the engine): its cases are goldens
  // in specs/int64/ (-D BRANCHES=65536 / 46341 on examples/phase_fence.py, -D NRANKS=4294967296
  // on examples/ring_allreduce.py, pl.range(1073741824), nested pl.range(65536), pl.range(3000000000)).
  // The control: small values keep working.
  it('#10 control: -D BRANCHES=8 compresses and -D NRANKS=8 is audited', async () => {
    const a = await cli(['apply', '--pass', 'expand-manual-phase-fence', '-D', 'BRANCHES=8', 'examples/phase_fence.py']);
    expect(a.out).toContain('phase_fence_barrier_0_tid = pl.system.task_dummy(deps=[stage_a_done])');
    const b = await cli(['audit', '-D', 'NRANKS=8', 'examples/ring_allreduce.py']);
    expect(b.err).not.toContain('bad-fact');
    expect(b.code).toBe(0);
  });
});
