/**
 * `ptolog test`: the shipped rules/examples tests pass through the command; a wrong
 * annotation, an unannotated finding and a wrong .fixed.py each fail with a located line;
 * malformed annotations and missing tests exit 2 with diagnostics.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';

/** A copy of a shipped example test in a scratch directory, its `# rules:` made absolute, edited by `edit`. */
function scratchCopy(name: string, edit: (t: string) => string, fixed = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-test-'));
  const dl = resolve('rules/examples', name.replace(/\.py$/, '.dl'));
  const text = readFileSync(join('rules/examples', name), 'utf8').replace(/# rules: .*/, `# rules: ${dl}`);
  const p = join(dir, name);
  writeFileSync(p, edit(text));
  if (fixed)
    writeFileSync(
      p.replace(/\.py$/, '.fixed.py'),
      readFileSync(join('rules/examples', name.replace(/\.py$/, '.fixed.py')), 'utf8').replace(/# rules: .*/, `# rules: ${dl}`),
    );
  return p;
}

describe('ptolog test', () => {
  it('runs the annotated tests of rules/examples: all pass, the summary is the last line', async () => {
    const r = await run(['test', 'rules/examples/']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\d+ passed, 0 failed\n$/);
    expect(Number(/^(\d+) passed/.exec(r.out)![1])).toBeGreaterThanOrEqual(10);
  });

  it('a wrong annotation fails with file:line, expected and got', async () => {
    const p = scratchCopy('ttest_is_a_wait.py', (t) =>
      t.replace('v = pl.read(win, [0, 0])  # expect: contract-violation', 'v = pl.read(win, [0, 0])  # expect: missing-marker'),
    );
    const r = await run(['test', p]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${p}:20: expected missing-marker, got contract-violation\n`);
    expect(r.out.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
  });

  it('an unannotated finding fails; an # ok: that is reported fails', async () => {
    const p = scratchCopy('put_signal_is_a_remote_write.py', (t) =>
      t.replace('        # expect: contract-violation, missing-marker\n', '').replace('        pl.system.fence()\n', ''),
    );
    const r = await run(['test', p]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:20: expected nothing, got contract-violation: `));
    expect(r.out).toContain(`:32: expected no missing-marker (# ok), got missing-marker: `);
  });

  it('an apply output that differs from NAME.fixed.py fails at the first differing line', async () => {
    const p = scratchCopy('ttest_is_a_wait.py', (t) => t, true);
    writeFileSync(
      p.replace(/\.py$/, '.fixed.py'),
      readFileSync(p.replace(/\.py$/, '.fixed.py'), 'utf8').replace('        pl.system.cacheinvalid()\n', ''),
    );
    const r = await run(['test', p]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /ttest_is_a_wait\.fixed\.py:20: expected "v = pl\.read\(win, \[0, 0\]\) {2}# expect: contract-violation", got "pl\.system\.cacheinvalid\(\)"/,
    );
  });

  it('a malformed annotation is a located diagnostic, exit 2', async () => {
    const p = scratchCopy('ttest_is_a_wait.py', (t) => t.replace('# expect: missing-marker\n', '# expect: \n'));
    const r = await run(['test', p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ttest_is_a_wait\.py:18:9: error\[bad-annotation\]: `# expect:` names nothing/);
    expect(r.out).toBe('');
  });

  it('a directory without tests, an unknown # pass: and a missing path exit 2', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ptolog-test-'));
    expect((await run(['test', empty])).err).toMatch(/error\[no-tests\]/);
    const p = scratchCopy('ttest_is_a_wait.py', (t) => t.replace('# pass: insert-comm-fence', '# pass: insert-comm-fences'));
    const r = await run(['test', p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /ttest_is_a_wait\.py:2:1: error\[bad-annotation\]: unknown pass insert-comm-fences \(did you mean insert-comm-fence\?\)/,
    );
    expect((await run(['test', join(empty, 'nope.py')])).code).toBe(2);
  });

  it('an undeclared code in # expect: is a malformed annotation with the closest code', async () => {
    const p = scratchCopy('ttest_is_a_wait.py', (t) => t.replace('# expect: missing-marker\n', '# expect: missing-markr\n'));
    const r = await run(['test', p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /ttest_is_a_wait\.py:18:19: error\[bad-annotation\]: 'missing-markr' is not a diagnostic code \(did you mean 'missing-marker'\?\)/,
    );
    expect(r.out).toBe('');
  });

  it('an empty item is refused; a keyword without its colon is warned', async () => {
    const p = scratchCopy('ttest_is_a_wait.py', (t) => t.replace('# expect: missing-marker\n', '# expect: missing-marker,,\n'));
    const r = await run(['test', p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ttest_is_a_wait\.py:18:9: error\[bad-annotation\]: `# expect: missing-marker,,` has an empty item/);
    const q = scratchCopy('ttest_is_a_wait.py', (t) => t.replace('N = 8\n', 'N = 8  # expect foo\n'));
    const w = await run(['test', q]);
    expect(w.err).toMatch(/ttest_is_a_wait\.py:7:8: warning\[annotation-without-colon\]: `# expect foo` is a plain comment/);
    expect(w.code).toBe(0);
  });

  it('an annotation at the end of the file is located at its line', async () => {
    const p = scratchCopy('ttest_is_a_wait.py', (t) => `${t}# expect: missing-marker\n`);
    const r = await run(['test', p]);
    expect(r.code).toBe(2);
    const lines = readFileSync(p, 'utf8').split('\n').length - 1;
    expect(r.err).toContain(
      `ttest_is_a_wait.py:${lines}:1: error[bad-annotation]: \`# expect: missing-marker\` is followed by no code line`,
    );
  });

  it("a user contract's # pass: without # rules: says the folder is missing", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-test-'));
    const p = join(dir, 'k.py');
    writeFileSync(p, readFileSync('rules/examples/syncall_handoff/syncall_handoff.py', 'utf8').replace('# rules: .\n', ''));
    const r = await run(['test', p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/k\.py:2:1: error\[bad-annotation\]: unknown pass syncall-handoff; .* This test has no `# rules:` line/);
  });

  it('the example contract syncall_handoff ships an annotated test and its .fixed.py', async () => {
    const r = await run(['test', 'rules/examples/syncall_handoff/']);
    expect(r.err).toBe('');
    expect(r.out).toBe('6 passed, 0 failed\n');
  });
});
