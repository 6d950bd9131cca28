/**
 * `fmt` keeps the whole file and reformats only the kernels: the module docstring, imports,
 * constants and code outside programs stay; `--write` rewrites in place, after which `--check`
 * passes; `--diff` prints what would change.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tree } from './helpers.js';

describe('fmt keeps the file', () => {
  it.each(['cache_bypass', 'mesh_gather', 'phase_fence', 'ring_allreduce'])(
    '%s: everything outside the programs is kept; --write then --check passes',
    async (name) => {
      const d = tree({ 'k.py': `@examples/${name}.py` });
      const p = join(d, 'k.py');
      const before = readFileSync(p, 'utf8');
      const printed = (await run(['fmt', p])).out;
      const docstring = /^"""[\s\S]*?"""\n/.exec(before)![0];
      expect(printed.startsWith(docstring)).toBe(true);
      const w = await run(['fmt', '--write', p]);
      expect(w.code, w.err).toBe(0);
      expect(readFileSync(p, 'utf8')).toBe(printed);
      const c = await run(['fmt', '--check', p]);
      expect(c.code, c.err).toBe(0);
      expect((await run(['fmt', '--diff', p])).out).toBe('');
    },
  );

  it('code after a program and around it is kept byte for byte', async () => {
    const src = readFileSync('examples/ring_allreduce.py', 'utf8');
    const d = tree({ 'k.py': `${src}\n\nif __name__ == "__main__":\n    print(  "run"  )\n` });
    const r = await run(['fmt', join(d, 'k.py')]);
    expect(r.out.endsWith('\n\nif __name__ == "__main__":\n    print(  "run"  )\n')).toBe(true);
  });

  it('--diff prints a unified diff of the kernels only', async () => {
    const d = tree({ 'k.py': '@examples/phase_fence.py' });
    const r = await run(['fmt', '--diff', join(d, 'k.py')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('-        tile = pl.load(');
    expect(r.out).toContain('+        tile = pl.tile.load(');
    expect(r.out).not.toMatch(/^-"""/m);
  });
});
