/**
 * ExpandManualPhaseFence's semantic check (src/verify/task-order.ts): the oracle accepts a
 * compression that keeps every task's predecessors and rejects a barrier without deps, a
 * barrier whose array is written before its consumers, and a changed launch; `verify` catches
 * the rule mutants that make such rewrites (with all passes and with the pass alone) and
 * passes the shipped rules.
 */

import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseModule } from '../../src/frontend/index.js';
import { taskOrderDifference } from '../../src/verify/task-order.js';
import { session as ruleSession } from '../session.js';
import { mutantRoot } from './mutant-rules.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), ruleSession });
  return { code, out, err };
}

/** An orchestration function over `tids: Array[4, TASK_ID]`; `body` is indented 12 spaces (inside the manual scope). */
function orch(...body: string[]): string {
  return [
    'import pypto.language as pl',
    '',
    '@pl.program',
    'class P:',
    '    @pl.function(type=pl.FunctionType.Orchestration)',
    '    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[4, pl.TASK_ID], t: pl.Scalar[pl.TASK_ID], c: pl.Scalar[pl.BOOL]):',
    '        with pl.manual_scope():',
    ...body.map((l) => `            ${l}`),
    '',
  ].join('\n');
}
const diff = (before: string, after: string): string | null => taskOrderDifference(parseModule(before, 'a.py'), parseModule(after, 'b.py'));
const loop = (...body: string[]): string[] => ['for i in pl.range(3):', ...body.map((l) => `    ${l}`)];
const consumer = (deps: string): string => `x, tid = pl.submit(self.k, x, deps=[${deps}])`;
const barrier = (deps: string): string => `b = pl.system.task_dummy(deps=[${deps}])`;

describe('the task-order oracle', () => {
  it('accepts the compression: each consumer happens after the same tasks through the barrier', () => {
    expect(diff(orch(...loop(consumer('tids'))), orch(barrier('tids'), ...loop(consumer('b'))))).toBeNull();
    expect(
      diff(
        orch('if c:', ...loop(consumer('tids')).map((l) => `    ${l}`)),
        orch(barrier('tids'), 'if c:', ...loop(consumer('b')).map((l) => `    ${l}`)),
      ),
    ).toBeNull();
  });

  it('rejects a barrier without deps: the consumer loses its predecessors', () => {
    expect(diff(orch(...loop(consumer('tids'))), orch('b = pl.system.task_dummy()', ...loop(consumer('b'))))).toMatch(
      /task 1 \(input line 9: self\.k\(x\)\) happens after \{tids\[0\], tids\[1\], tids\[2\], tids\[3\]\} in the input, after \{\} in the output/,
    );
  });

  it('rejects a barrier over an array the loop writes (after another slot value, or the same one)', () => {
    expect(diff(orch(...loop(consumer('tids'), 'tids[0] = t')), orch(barrier('tids'), ...loop(consumer('b'), 'tids[0] = t')))).toMatch(
      /task 2 .* happens after \{t, tids\[1\], tids\[2\], tids\[3\]\} in the input, after \{tids\[0\], tids\[1\], tids\[2\], tids\[3\]\}/,
    );
    // The write stores what the slot already held: the same predecessors, but the array is not read-only.
    const same = ['tids[0] = tids[0]'];
    expect(diff(orch(...loop(consumer('tids'), ...same)), orch(barrier('tids'), ...loop(consumer('b'), ...same)))).toMatch(
      /the array 'tids' read by the barrier at line 8 is written at line 11 before the launch/,
    );
  });

  it('rejects an array rebound in the loop and a changed launch', () => {
    const rebind = 'tids = pl.array.create(4, pl.TASK_ID)';
    expect(diff(orch(...loop(rebind, consumer('tids'))), orch(barrier('tids'), ...loop(rebind, consumer('b'))))).toMatch(
      /happens after \{\} in the input/,
    );
    expect(diff(orch(consumer('tids')), orch('x, tid = pl.submit(self.k2, x, deps=[tids])'))).toMatch(/is launched as self\.k2\(x\)/);
    expect(diff(orch(consumer('tids')), orch(consumer('tids'), consumer('tids')))).toMatch(/the input launches 1 tasks, the output 2/);
  });
});

// A test asserts behaviour, not speed: a day for each apply.
const NO_TIME_LIMIT = ['--timeout', '86400'];

describe('verify checks the task order of expand-manual-phase-fence', () => {
  for (const name of ['barrier without deps=', 'an array updated in the loop is safe']) {
    for (const only of [true, false]) {
      it(`a rules copy where "${name}" fails verify${only ? ' --pass expand-manual-phase-fence' : ' (all passes)'}`, async () => {
        const root = mutantRoot(name);
        const r = await run([
          'verify',
          ...(only ? ['--pass', 'expand-manual-phase-fence'] : []),
          '--rules-root',
          root,
          '--seed',
          '1',
          ...NO_TIME_LIMIT,
        ]);
        expect(r.err).toBe('');
        expect(r.out).toMatch(/^verify failed: task-order: expand-manual-phase-fence changes the order between tasks: /);
        expect(r.code).toBe(1);
      }, 600_000);
    }
  }

  it('the shipped rules pass the task-order check', async () => {
    const r = await run(['verify', '--pass', 'expand-manual-phase-fence', '--runs', '60', '--seed', '20261204', ...NO_TIME_LIMIT]);
    expect(r.out.split('\n')[0]).toBe(
      'verified 60 programs: idempotent, conservative, re-parses, task-order (soundness is checked for insert-comm-fence, which is not selected)',
    );
    expect(r.code).toBe(0);
  }, 600_000);
});
