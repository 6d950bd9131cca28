/**
 * Small things a user sees: colour forced by --color always or FORCE_COLOR (the path bold too);
 * a binary file's bytes never reach the terminal raw; SARIF fix text punctuated and URIs
 * percent-encoded; apply --help lists only apply's options; a failed --write never says
 * "nothing to change".
 */

import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { colorize, useColor } from '../../src/cli/output.js';
import { artifactUri } from '../../src/report/sarif.js';
import { visibleLine } from '../../src/report/text.js';
import { run, tree } from './helpers.js';

describe('colour', () => {
  it('--color always bolds the path and colours the severity', () => {
    const line = colorize('k.py:1:2: warning[missing-marker]: m');
    expect(line.startsWith('\x1b[1mk.py:1:2\x1b[22m: ')).toBe(true);
    expect(line).toContain('\x1b[33mwarning[missing-marker]');
  });

  it('FORCE_COLOR is honoured (and FORCE_COLOR=0 turns colour off), over NO_COLOR', () => {
    expect(useColor('auto', false, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor('auto', true, { FORCE_COLOR: '0' })).toBe(false);
    expect(useColor('auto', false, {})).toBe(false);
    expect(useColor('never', true, { FORCE_COLOR: '1' })).toBe(false);
  });

  it('audit with FORCE_COLOR colours its output', async () => {
    const r = await run(['audit', resolve('examples/cache_bypass.py')], { env: { FORCE_COLOR: '1' } });
    expect(r.out).toContain('\x1b[1m');
  });
});

describe('binary files', () => {
  it('print no control characters in the code frame, carets aligned', async () => {
    const d = tree({});
    writeFileSync(join(d, 'b.py'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x0a]));
    const r = await run(['audit', join(d, 'b.py')]);
    expect(r.out).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
    expect(visibleLine('a\x00\x1b[2Jb\tc')).toBe('a\u2400\u241b[2Jb\tc');
  });
});

describe('SARIF', () => {
  it('URIs are percent-encoded; absolute paths are file:// URIs', () => {
    expect(artifactUri('my kernels/k#1.py')).toBe('my%20kernels/k%231.py');
    expect(artifactUri('/tmp/a b/k.py')).toBe('file:///tmp/a%20b/k.py');
    expect(artifactUri('src/caf\u00e9.py')).toBe('src/caf%C3%A9.py');
  });

  it('the fix text is its own sentence after the message', async () => {
    const r = await run(['audit', '--format', 'sarif', resolve('examples/ring_allreduce.py')]);
    const texts = (JSON.parse(r.out) as { runs: { results: { message: { text: string } }[] }[] }).runs[0]!.results.map(
      (x) => x.message.text,
    );
    const withFix = texts.filter((t) => t.includes(' Fix: '));
    expect(withFix.length).toBeGreaterThan(0);
    for (const t of withFix) expect(t).toMatch(/[.!?:] Fix: .*[.!?:]$/);
  });
});

describe('apply', () => {
  it('--help lists only the options apply uses', async () => {
    const r = await run(['apply', '--help']);
    for (const o of ['--fail-on', '--max-warnings']) expect(r.out).not.toContain(o);
    expect(r.out).toContain('--write');
  });

  it('a failed --write never ends with "nothing to change"', async () => {
    const d = tree({ 'k.py': '@examples/ring_allreduce.py' });
    chmodSync(join(d, 'k.py'), 0o444);
    const r = await run(['apply', '--write', join(d, 'k.py')]);
    expect(r.code).toBe(2);
    expect(r.err).not.toContain('nothing to change');
    expect(r.err).toContain('no file written, 1 file not written (errors above)');
  });
});
