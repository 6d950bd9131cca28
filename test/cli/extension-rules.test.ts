// User rules (extensions): check-rules on a README-style extension, findings without includes,
// undeclared finding codes, the library's extension API, no warnings on shipped library files.

import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { run, tree } from './helpers.js';

describe('check-rules on an extension written as the README teaches', () => {
  it('checks a one-line file with the pass that declares its relation', async () => {
    const dir = tree({ 'barrier_is_a_wait.dl': 'wait_op("pld.system.barrier").\n' });
    const r = await run(['check-rules', join(dir, 'barrier_is_a_wait.dl')]);
    expect(r.code).toBe(0);
    // The op relations (rules/ops.dl, through lib.dl) are declared by every pass: the first hosts it.
    expect(r.out).toMatch(/^ok: checked as an extension of insert-comm-fence \(its rules read wait_op/);
  });
});

describe('user rules', () => {
  it('a finding rule without an include is reported once', async () => {
    // Uses only schema relations, which every pass declares: it extends all three passes.
    const dir = tree({
      'f.dl': 'finding("my-check", "warning", S, "a wait") :- stmt_value(S, C), call(C, "pld.system.wait", _).\n',
      'diagnostics.toml': '[my-check]\nseverity = "warning"\nsummary = "a wait"\n',
    });
    const r = await run(['audit', '--rules', dir, 'examples/ring_allreduce.py']);
    expect(r.out.match(/warning\[my-check\]/g)).toHaveLength(1);
  });

  it('a finding code no diagnostics.toml declares is a located load-time error', async () => {
    const dir = tree({ 'f.dl': 'finding("my-chek", "warning", S, "a wait") :- stmt_value(S, C), call(C, "pld.system.wait", _).\n' });
    const r = await run(['audit', '--rules', dir, 'examples/ring_allreduce.py']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `${basename(dir)}/f.dl:1:9: error[undeclared-code]: the finding code "my-chek" is not declared in any diagnostics.toml`,
    );
    expect(r.err).toContain('> 1 | finding("my-chek"');
  });

  it('the shipped examples work when copied elsewhere', async () => {
    const dir = tree({ 'a.dl': '@rules/examples/ttest_is_a_wait.dl', 'b.dl': '@rules/examples/put_signal_is_a_remote_write.dl' });
    const r = await run(['apply', '--rules', dir, 'specs/extension/ttest_and_put_signal.py']);
    expect(r.err).not.toContain('include-not-found');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/pld\.system\.ttest\(sig, \[0, 0\], 1\)\n\s+pl\.system\.cacheinvalid\(\)/);
  });
});

describe('the library loads extension rules', () => {
  it('exports readExtraRules and extrasFor', () => {
    const extras = lib.readExtraRules(['rules/examples'], lib.PASSES);
    expect(lib.extrasFor(lib.passByName('insert-comm-fence')!, extras)).toHaveLength(2);
  });
});

describe('no warnings about the shipped library files', () => {
  it('check-rules on a pass entry file is clean', async () => {
    const r = await run(['check-rules', 'rules/insert_comm_fence/insert_comm_fence.dl']);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('unused-relation');
  });
});
