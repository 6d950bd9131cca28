// One test per defect of issue 13 (each failed before its fix).

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { run, runBin, tree } from './helpers.js';

describe('1: a closed stdout (| head) ends the run quietly', () => {
  it('exits without a stack trace when the reader goes away', async () => {
    const child = spawn(process.execPath, [resolve('bin/ptolog.js'), 'explain', 'examples/phase_fence.py:41'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the first write
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(err).not.toMatch(/EPIPE|Error:/);
    expect(code).toBe(0);
  });
});

describe('2: apply --write keeps what a file is', () => {
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

describe('3: explain takes the FILE:LINE:COL audit prints', () => {
  it('explains the line', async () => {
    const r = await run(['explain', 'examples/ring_allreduce.py:27:13']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('examples/ring_allreduce.py:27:');
  });
});

describe('4: explain legend covers the whole proof and only nodes', () => {
  it('lists the loops and statement the proof path rests on, not line numbers', async () => {
    const r = await run(['explain', '--as-written', 'examples/mesh_gather.py:29', '--pass', 'insert-comm-fence']);
    expect(r.out).toMatch(/^ {4}28 = 25:9 `for src in/m);
    expect(r.out).toMatch(/^ {4}29 = 28:9 `for src in/m);
    expect(r.out).toMatch(/^ {4}80 = 29:13 `v = pl.read/m);
    expect(r.out).not.toMatch(/^ {4}27 = /m);
  });
});

describe('5: check-rules on an extension written as the README teaches', () => {
  it('checks a one-line file with the pass that declares its relation', async () => {
    const dir = tree({ 'barrier_is_a_wait.dl': 'wait_op("pld.system.barrier").\n' });
    const r = await run(['check-rules', join(dir, 'barrier_is_a_wait.dl')]);
    expect(r.code).toBe(0);
    // The op relations (rules/ops.dl, through lib.dl) are declared by every pass: the first hosts it.
    expect(r.out).toMatch(/^ok: checked as an extension of cache-policy/);
  });
});

describe('6: user rules', () => {
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

describe('7: the library loads extension rules', () => {
  it('exports readExtraRules and extrasFor', () => {
    const extras = lib.readExtraRules(['rules/examples'], lib.PASSES);
    expect(lib.extrasFor(lib.passByName('insert-comm-fence')!, extras)).toHaveLength(2);
  });
});

describe('8: version, unknown options and commands', () => {
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

describe('9: output directories through a file', () => {
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

describe('10: no warnings about the shipped library files', () => {
  it('check-rules on a pass entry file is clean', async () => {
    const r = await run(['check-rules', 'rules/insert_comm_fence/insert_comm_fence.dl']);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('unused-relation');
  });
});

describe('11: a -D for a name the file never mentions', () => {
  it('warns with the closest constant', async () => {
    const r = await run(['audit', '-D', 'NRNAKS=8', 'examples/ring_allreduce.py']);
    expect(r.out).toContain(
      'warning[unknown-define]: -D NRNAKS: examples/ring_allreduce.py has no constant or name NRNAKS; did you mean NRANKS?',
    );
  });
});

describe('12: graph draws every dependency', () => {
  it('counts the edges of launches with several deps', async () => {
    const r = await run(['graph', 'specs/expand_manual_phase_fence/multiple_arrays.py']);
    expect(r.out).toContain('label="32 dependency edges"');
    for (const m of r.out.matchAll(/label="line \d+: ([^"\\]*)/g)) expect(m[1]).toMatch(/(\)|\.\.\.)$/);
  });
});

describe('13: apply --diff with an absolute path', () => {
  it('has headers git apply accepts', async () => {
    const dir = tree({ 'k.py': '@examples/ring_allreduce.py' });
    const p = join(dir, 'k.py');
    const r = await run(['apply', '--diff', p]);
    const rel = p.slice(1);
    expect(r.out).toMatch(new RegExp(`^--- a/${rel.replace(/[.]/g, '\\.')}\\n\\+\\+\\+ b/`));
    writeFileSync(join(dir, 'p.diff'), r.out);
    const g = spawnSync('git', ['apply', '--check', join(dir, 'p.diff')], { cwd: '/', encoding: 'utf8' });
    expect(g.stderr).toBe('');
    expect(g.status).toBe(0);
  });
});

describe('14: a directory where a file is expected', () => {
  it.each([
    ['explain', 'examples:3'],
    ['graph', 'examples'],
  ])('%s says it is a directory', async (cmd, arg) => {
    const r = await run([cmd, arg]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot read examples: it is a directory.');
  });
});

describe('15: fixes and the apply summary', () => {
  it('a contract-violation does not repeat the missing-marker fix', async () => {
    const r = await run(['audit', '--format', 'json', 'examples/ring_allreduce.py']);
    const ds = JSON.parse(r.out).diagnostics as { code: string; fix?: string }[];
    expect(ds.filter((d) => d.code === 'contract-violation').every((d) => d.fix === undefined)).toBe(true);
    expect(ds.filter((d) => d.code === 'missing-marker').every((d) => d.fix !== undefined)).toBe(true);
  });
  it('apply --write says what it did', async () => {
    const dir = tree({ 'a.py': '@examples/ring_allreduce.py', 'b.py': '@examples/mesh_gather.py', 'c.py': '@examples/cache_bypass.py' });
    const r = await run(['apply', '--write', '--pass', 'insert-comm-fence', dir]);
    expect(r.code).toBe(0);
    expect(r.err).toContain('ptolog: applied 5 edits in 2 files, 1 file unchanged.');
  });
});

describe('16: fmt --check does not suggest the comment-dropping fmt', () => {
  it('says how to see what fmt would change', async () => {
    const r = await run(['fmt', '--check', 'examples/ring_allreduce.py']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('examples/ring_allreduce.py: not canonical (ptolog fmt --diff shows what would change)');
  });
});

void runBin;
