// Helpers imported from another module judged as inlined into their caller (issue 28 item 3):
// findings in the helper's file, markers inserted there, once, also when the helper file is run too.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tree } from './helpers.js';

// A helper without a `pl.at` scope: nothing to insert on its own, a fence and a cacheinvalid once inlined into an InCore kernel.
const HELPER =
  'import pypto.language as pl\nimport pypto.language.distributed as pld\n\n@pl.jit.inline\n' +
  'def put_wait(x: pl.Tensor[[1, 64], pl.FP32], win: pld.DistributedTensor[[1, 64], pl.FP32],\n' +
  '             sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):\n' +
  '    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 64])\n' +
  '    pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)\n    return x\n';
const KERNEL = (name: string): string =>
  'import pypto.language as pl\nimport pypto.language.distributed as pld\nfrom helpers import put_wait\n\n@pl.jit.incore\n' +
  `def ${name}(x: pl.Tensor[[1, 64], pl.FP32], win: pld.DistributedTensor[[1, 64], pl.FP32],\n` +
  '      sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):\n    x = put_wait(x, win, sig, peer)\n    return x\n';
const FENCED =
  '    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 64])\n    pl.system.fence()\n' +
  '    pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)\n    pl.system.cacheinvalid()\n    return x\n';

describe('helpers of another module, judged as inlined', () => {
  it("audit of the caller reports the helper's markers in the helper's file; the helper alone needs none", async () => {
    const dir = tree({ 'k.py': KERNEL('k'), 'helpers.py': HELPER });
    const r = await run(['audit', '--isolated', join(dir, 'k.py')]);
    expect(r.out).toContain(`${join(dir, 'helpers.py')}:7:5: note[missing-marker]`);
    expect(r.out).toContain(`${join(dir, 'helpers.py')}:8:5: note[missing-marker]`);
    expect(r.out).toContain('2 findings');
    const alone = await run(['audit', '--isolated', join(dir, 'helpers.py')]);
    expect(alone.out).toContain('All checks passed');
    // Reached from the caller and audited itself: each finding once.
    const both = await run(['audit', '--isolated', join(dir, 'k.py'), join(dir, 'helpers.py')]);
    expect(both.out).toContain('2 findings');
  });

  it('apply --write inserts them in the helper file (idempotent); two callers and the helper itself: once', async () => {
    const dir = tree({ 'k.py': KERNEL('k'), 'k2.py': KERNEL('k2'), 'helpers.py': HELPER });
    const diff = await run(['apply', '--isolated', '--diff', join(dir, 'k.py')]);
    expect(diff.out).toContain('helpers.py');
    expect(diff.out).toContain('+    pl.system.fence()');
    const files = [join(dir, 'k.py'), join(dir, 'k2.py'), join(dir, 'helpers.py')];
    await run(['apply', '--isolated', '--write', ...files]);
    expect(readFileSync(join(dir, 'helpers.py'), 'utf8')).toContain(FENCED);
    expect(readFileSync(join(dir, 'helpers.py'), 'utf8').split('pl.system.fence()').length).toBe(2);
    expect(readFileSync(join(dir, 'k.py'), 'utf8')).toBe(KERNEL('k'));
    const again = await run(['apply', '--isolated', '--write', ...files]);
    expect(again.err).toContain('nothing to change');
    expect(readFileSync(join(dir, 'helpers.py'), 'utf8')).toContain(FENCED);
  });

  it('--write on the caller alone writes the helper file and counts its edits', async () => {
    const dir = tree({ 'k.py': KERNEL('k'), 'helpers.py': HELPER });
    const r = await run(['apply', '--isolated', '--write', join(dir, 'k.py')]);
    expect(r.err).toBe('ptolog: applied 2 edits in 1 file, 1 file unchanged.\n');
    expect(readFileSync(join(dir, 'helpers.py'), 'utf8')).toContain(FENCED);
  });

  it('print: the caller, then the helper file it patched, each under its name', async () => {
    const dir = tree({ 'k.py': KERNEL('k'), 'helpers.py': HELPER });
    const r = await run(['apply', '--isolated', join(dir, 'k.py')]);
    expect(r.out).toContain(`# ==> ${join(dir, 'helpers.py')} <==\n`);
    expect(r.out).toContain(FENCED);
  });

  it("markers inserted into a helper file are written in that file's spelling of pypto.language", async () => {
    const helper = HELPER.replace(
      'import pypto.language as pl\nimport pypto.language.distributed as pld',
      'import pypto.language as pyl\nimport pypto.language.distributed as pyd',
    )
      .replaceAll('pl.', 'pyl.')
      .replaceAll('pld.', 'pyd.');
    const dir = tree({ 'k.py': KERNEL('k'), 'helpers.py': helper });
    const r = await run(['apply', '--isolated', '--diff', join(dir, 'k.py')]);
    expect(r.out).toContain('+    pyl.system.fence()');
    expect(r.out).toContain('+    pyl.system.cacheinvalid()');
    expect(r.out).not.toContain('+    pl.');
  });

  it('a helper whose definition does not read in its file: a located note at the import, never silence', async () => {
    const broken = HELPER.replace('    return x\n', '    return x +\n');
    const dir = tree({ 'k.py': KERNEL('k'), 'helpers.py': broken });
    const r = await run(['audit', '--isolated', join(dir, 'k.py')]);
    expect(r.out).toContain(
      `${join(dir, 'k.py')}:3:1: note[unresolved-import]: a kernel calls 'put_wait', an inline helper of ${join(dir, 'helpers.py')}`,
    );
    expect(r.out).not.toContain('opaque publishing write');
  });

  it("a suppression comment in the helper's file applies to its findings reached from the caller", async () => {
    const quiet = HELPER.replace('shape=[1, 64])\n', 'shape=[1, 64])  # ptolog: ignore[missing-marker]\n');
    const dir = tree({ 'k.py': KERNEL('k'), 'helpers.py': quiet });
    const r = await run(['audit', '--isolated', join(dir, 'k.py')]);
    expect(r.out).not.toContain(`${join(dir, 'helpers.py')}:7:5`);
    expect(r.out).toContain(`${join(dir, 'helpers.py')}:8:5: note[missing-marker]`);
  });
});
