// Usage: --version, unknown options and commands, output paths through a file, and -D for a
// name the file never mentions.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';

describe('version, unknown options and commands', () => {
  it('--version prints the version', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });
  it('an unknown flag is one short error', async () => {
    const r = await run(['audit', '--bogus', 'x.py']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("error: unknown option '--bogus'\n(add --help for usage)\n");
  });
  it('help for an unknown command says so', async () => {
    const r = await run(['help', 'audti']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: unknown command 'audti' \(did you mean audit\?\)/);
  });
});

describe('output directories through a file', () => {
  it('run -D README.md/out is a located error', async () => {
    const r = await run(['run', 'specs/datalog/run/tc.dl', '-F', 'specs/datalog/run/tc.facts', '-D', 'README.md/out']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('error[unwritable-output]: cannot create the output directory README.md/out (-D)');
    expect(r.err).not.toContain('internal error');
  });
  it('facts --out README.md/f is a located error', async () => {
    const r = await run(['facts', 'examples/ring_allreduce.py', '--out', 'README.md/f']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('error[unwritable-output]');
    expect(r.err).not.toContain('internal error');
  });
});

describe('a -D for a name the file never mentions', () => {
  it('warns with the closest constant', async () => {
    const r = await run(['audit', '-D', 'NRNAKS=8', 'examples/ring_allreduce.py']);
    expect(r.out).toContain(
      'warning[unknown-define]: -D NRNAKS: examples/ring_allreduce.py has no constant or name NRNAKS; did you mean NRANKS?',
    );
  });
});
