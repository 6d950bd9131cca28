import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileTask } from '../../src/cli/file-task.js';
import { main } from '../../src/cli/main.js';
import { runTasks } from '../../src/cli/pool.js';
import { PASSES } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import { ruleCacheOf } from '../../src/runner/rule-cache.js';
import { tree } from './helpers.js';

/** Runs the CLI in-process with its own rule session; returns the exit code and what the session loaded. */
async function loadsOf(args: string[]): Promise<{ code: number; loads: { read: number; compiled: number } }> {
  const session = new RuleSession();
  const code = await main(args, { stdout: () => {}, stderr: () => {}, ruleSession: session });
  return { code, loads: session.loadCounts() };
}

const PLAIN = 'import numpy as np\n\n\ndef scale(x):\n    return np.asarray(x) * 2\n';

describe('which runs load rule programs', () => {
  it('audit and apply of a file without PyPTO load no rules; a kernel loads each contract once', async () => {
    const dir = tree({ 'plain.py': PLAIN });
    const plain = resolve(dir, 'plain.py');
    for (const args of [
      ['audit', plain],
      ['apply', plain],
      ['audit', '--jobs', '1', plain, plain],
    ]) {
      expect(await loadsOf(args)).toEqual({ code: 0, loads: { read: 0, compiled: 0 } });
    }
    // (The counter counts: a kernel loads every contract's audit program, once for two files.)
    const kernel = await loadsOf(['audit', 'examples/ring_allreduce.py', 'examples/ring_allreduce.py']);
    expect(kernel.code).toBe(0);
    expect(kernel.loads).toEqual({ read: 0, compiled: PASSES.length });
  });

  it.runIf(existsSync('dist/cli/worker.js'))("--jobs workers read the main thread's compiled rules and compile none", async () => {
    // A cache with no directory (as --no-cache): the workers have only what the main thread hands them.
    const session = new RuleSession(process.cwd(), ruleCacheOf({ version: 'rule-loads-test' }));
    const task = (file: string): FileTask => ({
      command: 'audit',
      file,
      passes: PASSES.map((p) => p.name),
      rules: [],
      include: [],
      defines: [],
      severity: {},
      ignoredCodes: [],
      reportUnusedIgnores: false,
    });
    const files = [
      'examples/ring_allreduce.py',
      'examples/mesh_gather.py',
      'rules/examples/ttest_is_a_wait.py',
      'examples/ring_allreduce.py',
    ];
    const results = await runTasks(files.map(task), 2, session);
    expect(results.every((r) => r.fatal === undefined)).toBe(true);
    // The main thread compiles each program once (the first task); each worker reads them, once.
    expect(results[0]!.rules).toEqual({ read: 0, compiled: PASSES.length });
    const later = results.slice(1).map((r) => r.rules ?? { read: 0, compiled: 0 });
    expect(later.every((r) => r.compiled === 0)).toBe(true);
    const reads = later.map((r) => r.read).filter((n) => n > 0);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(2);
    expect(reads.every((n) => n === PASSES.length)).toBe(true);
  });
});
