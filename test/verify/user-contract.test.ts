/**
 * `verify` on user contracts: the generated kernels call the ops the contract's rules name (from
 * the op catalog), so a contract is verified on programs it rewrites, not vacuously; the
 * conservativeness check knows the edit vocabulary (a `set_kwarg` contract is conservative);
 * the output says how many programs were rewritten and how many refused.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { contractsWith } from '../../src/passes/registry.js';
import { contractOpNames } from '../../src/verify/contract-ops.js';
import { session as ruleSession } from '../session.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), ruleSession });
  return { code, out, err };
}

// A test asserts behaviour, not speed: a day for each apply.
const NO_TIME_LIMIT = ['--timeout', '86400'];

/** The share of programs rewritten and refused, from verify's second line. */
function shares(out: string): { rewritten: number; refused: number } {
  const m = /rewritten by the rules: (\d+) \(\d+%\); refused with errors \(nothing to check\): (\d+) \(\d+%\)/.exec(out);
  expect(m, out).not.toBeNull();
  return { rewritten: Number(m![1]), refused: Number(m![2]) };
}

describe('verify on user contracts', () => {
  it('the ops a contract names come from its own rule files', () => {
    const pass = contractsWith(['rules/examples/syncall_handoff']).find((p) => p.name === 'syncall-handoff')!;
    expect(contractOpNames([pass], {})).toEqual(['pl.system.syncall']);
  });

  it('syncall-handoff (rules/examples) is verified on programs that call pl.system.syncall: most are rewritten, none refused', async () => {
    const r = await run([
      'verify',
      '--rules',
      'rules/examples/syncall_handoff',
      '--pass',
      'syncall-handoff',
      '--runs',
      '40',
      '--seed',
      '1',
      ...NO_TIME_LIMIT,
    ]);
    expect(r.code).toBe(0);
    const s = shares(r.out);
    expect(s.rewritten).toBeGreaterThanOrEqual(20);
    expect(s.refused).toBe(0);
  }, 600_000);

  it('a set_kwarg contract is conservative (its keyword is an edit of the call it names)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-atomic-'));
    writeFileSync(
      join(dir, 'contract.toml'),
      'name = "explicit-atomic"\norder = 50\nsummary = "every remote_store names its atomic mode"\napply = "atomic.dl"\naudit = "atomic_report.dl"\n',
    );
    writeFileSync(
      join(dir, 'atomic.dl'),
      [
        '#include <ptolog/edits.dl>',
        '#include <ptolog/lib.dl>',
        '.decl remote_call(c: number)',
        'remote_call(C) :- stmt_call(_, C, "pld.tile.remote_store").',
        'set_kwarg(C, "atomic", "pld.AtomicType.None_") :- remote_call(C), !kwarg(C, "atomic", _).',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'atomic_report.dl'), '#include "atomic.dl"\n');
    const r = await run(['verify', '--rules', dir, '--pass', 'explicit-atomic', '--runs', '40', '--seed', '1', ...NO_TIME_LIMIT]);
    expect(r.out.split('\n')[0]).toBe(
      'verified 40 programs: idempotent, conservative, re-parses (soundness is checked for insert-comm-fence, which is not selected)',
    );
    expect(r.code).toBe(0);
    expect(shares(r.out).rewritten).toBeGreaterThanOrEqual(20);
  }, 600_000);

  it('the shipped contracts: the refusal rate is under 10%', async () => {
    const r = await run(['verify', '--runs', '50', '--seed', '20261204', ...NO_TIME_LIMIT]);
    expect(r.code).toBe(0);
    expect(shares(r.out).refused).toBeLessThan(5);
  }, 600_000);
});
