/**
 * `ptolog verify`: the shipped contracts verify clean (a small run; `--runs 1000` is run by
 * hand, see README); a rule that is not idempotent, a rule set without the wait-side
 * invalidate and a rule set that does not terminate are each caught with the property, the
 * seed and a shrunk counterexample (and, for soundness, the stale-read execution).
 */

import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { session as ruleSession } from '../session.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), ruleSession });
  return { code, out, err };
}

/** A directory holding one user rule file that #includes the shipped insert_comm_fence.dl. */
function userRules(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-rules-'));
  const inc = relative(dir, resolve('rules/insert_comm_fence/insert_comm_fence.dl'));
  writeFileSync(join(dir, 'user.dl'), `#include "${inc}"\n${body}\n`);
  return dir;
}

/** The statements of the counterexample's functions (lines indented as bodies, not parameters). */
function bodyLines(program: string): string[] {
  return program.split('\n').filter((l) => /^ {8}\S/.test(l) && !/^ {8}(self,|\w+: )/.test(l) && l.trim() !== 'pass' && l.trim() !== '):');
}

// A test asserts behaviour, not speed: a day for each apply, so that no load of the machine fails `terminates`.
const NO_TIME_LIMIT = ['--timeout', '86400'];

const counterexample = (out: string): string =>
  out.split(/counterexample \(program \d+, shrunk in \d+ steps\):\n/)[1]!.split('\n--- apply(x)')[0]!;

describe('ptolog verify', () => {
  it('the shipped contracts verify clean', async () => {
    const r = await run(['verify', '--runs', '30', '--seed', '20261201', ...NO_TIME_LIMIT]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('verified 30 programs: idempotent, conservative, re-parses, sound, task-order, cache-policy');
  }, 300_000);

  it('a rule that inserts a fence after every fence is not idempotent: exit 1, seed, a counterexample of a few lines', async () => {
    const dir = userRules('insert_after(S, 5, "fence", 0, 0) :- fence_scope(S), fence(S).');
    const r = await run(['verify', '--pass', 'insert-comm-fence', '--rules', dir, '--runs', '50', '--seed', '3', ...NO_TIME_LIMIT]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^verify failed: idempotent: apply\(apply\(x\)\) differs from apply\(x\)/);
    expect(r.out).toContain(
      `seed: 3 (replay: ptolog verify --pass insert-comm-fence --rules ${dir} --runs 50 ${NO_TIME_LIMIT.join(' ')} --seed 3)`,
    );
    const cx = counterexample(r.out);
    expect(cx).toContain('@pl.program');
    expect(bodyLines(cx).length).toBeLessThanOrEqual(4);
    expect(r.out).toMatch(/\+\s+pl\.system\.fence\(\)/);
  }, 300_000);

  it('a rule set (--rules-root) that drops the wait-side invalidate is unsound: the stale-read execution step by step', async () => {
    const root = join(mkdtempSync(join(tmpdir(), 'ptolog-root-')), 'rules');
    cpSync('rules', root, { recursive: true });
    const f = join(root, 'insert_comm_fence', 'insert_comm_fence.dl');
    const text = readFileSync(f, 'utf8');
    const dropped = text.replace(/insert_after\(S, 0, "cacheinvalid_all", 0, 0\) :-\n\s+fence_scope\(S\), wait\(S\)[^\n]*\n/, '');
    expect(dropped).not.toBe(text);
    writeFileSync(f, dropped);
    const r = await run(['verify', '--pass', 'insert-comm-fence', '--rules-root', root, '--runs', '100', '--seed', '3', ...NO_TIME_LIMIT]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^verify failed: sound: apply's output is racy: the read of .* can see a cache line older than GM/);
    expect(r.out).toMatch(/rank 1: writes its window data into rank 0's GM/);
    expect(r.out).toMatch(/rank 0, line \d+: pld\.system\.wait\(.*# returns; rank 0's cached lines may now be older than GM/);
    expect(r.out).toMatch(/rank 0, line \d+: .*# reads .* through the cache: STALE/);
  }, 300_000);

  it('a rule set that does not terminate fails `terminates` at its tuple bound', async () => {
    const dir = userRules(
      '.decl grow(n: number)\ngrow(0).\ngrow(N + 1) :- grow(N).\ninsert_after(S, 9, "fence", 0, 0) :- fence_scope(S), fence(S), grow(N), N < 0.',
    );
    const r = await run([
      'verify',
      '--pass',
      'insert-comm-fence',
      '--rules',
      dir,
      '--runs',
      '5',
      '--seed',
      '1',
      '--max-tuples',
      '10000',
      ...NO_TIME_LIMIT,
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^verify failed: terminates: rule evaluation did not finish within .* or its tuple bound \(.*grow/);
  }, 300_000);

  it('bad arguments exit 2 with a diagnostic', async () => {
    expect((await run(['verify', '--rules-root', '/nonexistent/rules'])).err).toMatch(
      /error\[unreadable-file\]: --rules-root \/nonexistent\/rules is not a directory/,
    );
    const bad = mkdtempSync(join(tmpdir(), 'ptolog-root-'));
    mkdirSync(join(bad, 'x'));
    const r = await run(['verify', '--pass', 'insert-comm-fence', '--rules-root', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/lacks insert_comm_fence\/insert_comm_fence\.dl, insert_comm_fence\/comm_contract\.dl/);
    expect((await run(['verify', '--runs', '0'])).code).toBe(2);
  });
});
