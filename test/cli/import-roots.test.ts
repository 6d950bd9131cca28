// `--import-root DIR` and the package roots of pyproject.toml: where the helpers a kernel imports are found (issue 28 item 3).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tree } from './helpers.js';

const HELPER =
  'import pypto.language as pl\nimport pypto.language.distributed as pld\n\n@pl.jit.inline\n' +
  'def ping(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):\n' +
  '    pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)\n    return sig\n';
const KERNEL =
  'import pypto.language as pl\nimport pypto.language.distributed as pld\nfrom helpers import ping\n\n@pl.jit.incore\n' +
  'def k(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):\n    sig = ping(sig, peer)\n    return sig\n';

describe('import roots', () => {
  it('without the root the import is a note and the call an opaque write; with --import-root it is inlined', async () => {
    const dir = tree({ 'kern/k.py': KERNEL, 'lib/helpers.py': HELPER });
    const without = await run(['audit', '--isolated', join(dir, 'kern/k.py')]);
    expect(without.out).toContain('note[unresolved-import]');
    expect(without.out).toContain('opaque publishing write');
    const withRoot = await run(['audit', '--isolated', '--import-root', join(dir, 'lib'), join(dir, 'kern/k.py')]);
    expect(withRoot.out).not.toContain('unresolved-import');
    expect(withRoot.out).not.toContain('opaque publishing write');
  });

  it('the package roots of the nearest pyproject.toml (its folder, python/) are searched', async () => {
    const dir = tree({ 'pyproject.toml': '[project]\nname = "x"\n', 'python/kern/k.py': KERNEL, 'python/helpers.py': HELPER });
    const r = await run(['audit', '--isolated', join(dir, 'python/kern/k.py')]);
    expect(r.out).not.toContain('unresolved-import');
    expect(r.out).not.toContain('opaque publishing write');
  });
});

describe('a helper file in the run', () => {
  it("its unresolved import is one note, in the helper's own words, when the kernel that imports it is audited with it", async () => {
    const both = await run(['audit', 'specs/modules/deep_unresolved.py', 'specs/modules/lib/comm/shaky.py']);
    const notes = both.out.split('\n').filter((l) => l.includes('note[unresolved-import]'));
    expect(notes).toHaveLength(1);
    // (shaky.py run as a script: Python searches its own folder first.)
    expect(notes[0]).toContain('searched specs/modules/lib/comm, specs/modules');
    // Alone, the kernel still names the helper's import, as it searched.
    const alone = await run(['audit', 'specs/modules/deep_unresolved.py']);
    expect(alone.out).toContain('shaky.py:7:1: note[unresolved-import]');
  });
});
