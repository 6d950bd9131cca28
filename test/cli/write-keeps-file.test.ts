// apply --write keeps what a file is (links, permissions, owner, bytes outside the edits), and
// a directory where a file is expected is a located error.

import { chmodSync, chownSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tree } from './helpers.js';

describe('apply --write keeps what a file is', () => {
  const kernel = readFileSync('examples/ring_allreduce.py', 'utf8');

  it.each([0o750, 0o600, 0o640, 0o755, 0o4755])('keeps mode %o', async (mode) => {
    const dir = tree({ 'k.py': kernel });
    const p = join(dir, 'k.py');
    chmodSync(p, mode);
    expect((await run(['apply', '--write', '--pass', 'insert-comm-fence', p])).code).toBe(0);
    expect(statSync(p).mode & 0o7777).toBe(mode);
    expect(readFileSync(p, 'utf8')).toContain('pl.system.fence()');
  });

  it('writes through a symlink, keeping the link', async () => {
    const dir = tree({ 'real/k.py': kernel });
    const link = join(dir, 'link.py');
    symlinkSync(join(dir, 'real/k.py'), link);
    expect((await run(['apply', '--write', link])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real/k.py'), 'utf8')).toContain('pl.system.fence()');
    expect(readdirSync(join(dir, 'real'))).toEqual(['k.py']);
  });

  it('keeps hard links', async () => {
    const dir = tree({ 'k.py': kernel });
    const p = join(dir, 'k.py');
    linkSync(p, join(dir, 'other.py'));
    expect((await run(['apply', '--write', p])).code).toBe(0);
    expect(statSync(p).ino).toBe(statSync(join(dir, 'other.py')).ino);
    expect(readFileSync(join(dir, 'other.py'), 'utf8')).toContain('pl.system.fence()');
    expect(readdirSync(dir).sort()).toEqual(['k.py', 'other.py']);
  });

  it('refuses a read-only file with an error naming it, exit 2', async () => {
    const dir = tree({ 'k.py': kernel });
    const p = join(dir, 'k.py');
    chmodSync(p, 0o444);
    const r = await run(['apply', '--write', p]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${p}: error[write-failed]: cannot write ${p}: it is read-only`);
    expect(readFileSync(p, 'utf8')).toBe(kernel);
  });

  it('keeps the owner when run as root', async () => {
    if (process.getuid?.() !== 0) {
      // Only root can give a file to another user; the rest of this suite runs as root in CI.
      expect(process.getuid?.()).not.toBe(0);
      return;
    }
    const dir = tree({ 'k.py': kernel });
    const p = join(dir, 'k.py');
    chownSync(p, 1234, 2345);
    expect((await run(['apply', '--write', p])).code).toBe(0);
    expect([statSync(p).uid, statSync(p).gid]).toEqual([1234, 2345]);
  });

  it('keeps non-UTF-8 bytes outside the edits byte for byte', async () => {
    const dir = tree({});
    const p = join(dir, 'k.py');
    const bytes = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from(' (Latin-1)\n'), Buffer.from(kernel)]);
    writeFileSync(p, bytes);
    expect((await run(['apply', '--write', p])).code).toBe(0);
    const after = readFileSync(p);
    expect(after.subarray(0, 5 + 1 + 11).equals(bytes.subarray(0, 17))).toBe(true);
    expect(after.includes(Buffer.from([0xef, 0xbf, 0xbd]))).toBe(false);
  });
});

describe('a directory where a file is expected', () => {
  it.each([
    ['explain', 'examples:3'],
    ['graph', 'examples'],
  ])('%s says it is a directory', async (cmd, arg) => {
    const r = await run([cmd, arg]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot read examples: it is a directory.');
  });
});
