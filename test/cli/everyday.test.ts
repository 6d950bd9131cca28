// Many files, configuration, suppressions, thresholds and output formats (issue 13).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, runBin, tree } from './helpers.js';

const RING = readFileSync('examples/ring_allreduce.py', 'utf8');
/** ring_allreduce with its two missing markers only (no contract pass errors): line 27 (fence), line 30 (cacheinvalid). */
const ONLY = ['--pass', 'insert-comm-fence'];

function codes(out: string): string[] {
  return [...out.matchAll(/^\S+:\d+:\d+: \w+\[([^\]]+)\]/gm)].map((m) => m[1]!);
}

describe('paths: files, directories, globs, stdin', () => {
  it('a directory gives its .py files recursively, skipping .gitignore and exclude', async () => {
    const dir = tree({
      '.git/HEAD': 'ref\n',
      '.gitignore': 'generated/\n',
      'a.py': '@examples/mesh_gather.py',
      'sub/b.py': '@examples/ring_allreduce.py',
      'generated/c.py': '@examples/ring_allreduce.py',
      'vendor/d.py': '@examples/ring_allreduce.py',
      'notes.txt': 'not python',
    });
    const r = await run(['audit', '--format', 'json', '--exclude', 'vendor', dir]);
    const files = [...new Set((JSON.parse(r.out).diagnostics as { file: string }[]).map((d) => d.file))];
    expect(files).toEqual([join(dir, 'a.py'), join(dir, 'sub/b.py')]);
  });

  it('a glob gives the files it matches', async () => {
    const dir = tree({
      'k/a.py': '@examples/mesh_gather.py',
      'k/deep/b.py': '@examples/ring_allreduce.py',
      'other/c.py': '@examples/ring_allreduce.py',
    });
    const r = await run(['audit', '--format', 'json', `${dir}/k/**/*.py`]);
    const files = [...new Set((JSON.parse(r.out).diagnostics as { file: string }[]).map((d) => d.file))];
    expect(files).toEqual([join(dir, 'k/a.py'), join(dir, 'k/deep/b.py')]);
  });

  it('a path that matches nothing is an error, exit 2', async () => {
    const r = await run(['audit', 'no/such/dir']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot read no/such/dir: no such file or directory.');
  });

  it('- reads standard input, reported as --stdin-filename', async () => {
    const r = await run(['audit', '--as-written', ...ONLY, '-', '--stdin-filename', 'kernels/ring.py'], { readStdin: async () => RING });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^kernels\/ring\.py:27:13: warning\[missing-marker\]/m);
    const a = await run(['apply', ...ONLY, '-'], { readStdin: async () => RING });
    expect(a.out).toContain('pl.system.fence()');
  });

  it('apply --write refuses standard input', async () => {
    const r = await run(['apply', '--write', '-'], { readStdin: async () => RING });
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot write standard input');
  });

  it('--jobs 1 and --jobs 2 print the same, in file order', () => {
    const a = runBin(['audit', '--jobs', '1', '--format', 'json', 'examples']);
    const b = runBin(['audit', '--jobs', '2', '--format', 'json', 'examples']);
    expect(a.code).toBe(1);
    expect(b.out).toBe(a.out);
    expect(b.err).toBe(a.err);
    expect(b.code).toBe(a.code);
    const files = (JSON.parse(a.out).diagnostics as { file: string }[]).map((d) => d.file);
    expect(files).toEqual([...files].sort());
  });

  it('apply --write on many files with --jobs 2 writes each and sums up', () => {
    const dir = tree({ 'a.py': '@examples/ring_allreduce.py', 'b.py': '@examples/mesh_gather.py' });
    const r = runBin(['apply', '--write', '--jobs', '2', ...ONLY, dir]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('ptolog: applied 5 edits in 2 files.\n');
    expect(readFileSync(join(dir, 'a.py'), 'utf8')).toContain('pl.system.fence()');
  });
});

describe('configuration', () => {
  it('is found from the file upwards; pyproject.toml without [tool.ptolog] is skipped', async () => {
    const dir = tree({
      'pyproject.toml': '[tool.ptolog]\npasses = ["insert-comm-fence"]\n[tool.ptolog.severity]\nmissing-marker = "error"\n',
      'pkg/pyproject.toml': '[project]\nname = "x"\n',
      'pkg/deep/k.py': '@examples/ring_allreduce.py',
    });
    const r = await run(['audit', join(dir, 'pkg/deep/k.py')]);
    expect(codes(r.out).filter((c) => c === 'missing-marker')).toHaveLength(2);
    expect(r.out).toMatch(/error\[missing-marker\]/);
    expect(r.out).not.toMatch(/warning\[missing-marker\]/);
  });

  it('a nearer ptolog.toml wins; --isolated ignores it; --config points at one', async () => {
    const dir = tree({
      'ptolog.toml': '[severity]\nmissing-marker = "off"\n',
      'k.py': '@examples/ring_allreduce.py',
      'other.toml': 'passes = ["insert-comm-fence"]\n[per-file-ignores]\n"k.py" = ["contract-violation"]\n',
    });
    const k = join(dir, 'k.py');
    expect(codes((await run(['audit', ...ONLY, k])).out)).not.toContain('missing-marker');
    expect(codes((await run(['audit', ...ONLY, '--isolated', k])).out)).toContain('missing-marker');
    const c = await run(['audit', '--config', join(dir, 'other.toml'), k]);
    expect(codes(c.out)).toEqual(['missing-marker', 'missing-marker']);
  });

  it('defines, rules and exclude come from the configuration', async () => {
    const dir = tree({
      'ptolog.toml': 'rules = ["myrules"]\nextend-exclude = ["skip_*"]\n[defines]\nNRANKS = 8\n',
      'myrules/w.dl': 'finding("my-check", "warning", S, "a wait") :- wait(S).\n',
      'myrules/diagnostics.toml': '[my-check]\nseverity = "warning"\nsummary = "a wait"\n',
      'k.py': '@examples/ring_allreduce.py',
      'skip_me.py': 'this is not python (',
    });
    const r = await run(['audit', ...ONLY, dir]);
    expect(r.err).toBe('');
    expect(codes(r.out)).toContain('my-check');
    expect(codes(r.out)).not.toContain('unknown-define');
  });

  it('an unknown key is a located error with a suggestion, exit 2', async () => {
    const dir = tree({
      'pyproject.toml': '[project]\nname = "x"\n\n[tool.ptolog]\npasss = ["insert-comm-fence"]\n',
      'k.py': '@examples/ring_allreduce.py',
    });
    const r = await run(['audit', join(dir, 'k.py')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(dir, 'pyproject.toml')}:5:1: error[config]: unknown key 'passs' — did you mean 'passes'?`);
    expect(r.err).toContain('> 5 | passs = ["insert-comm-fence"]');
  });

  it('a wrong type, a bad pass name and bad TOML are located errors', async () => {
    const t = async (toml: string): Promise<string> => {
      const dir = tree({ 'ptolog.toml': toml, 'k.py': '@examples/ring_allreduce.py' });
      const r = await run(['audit', join(dir, 'k.py')]);
      expect(r.code).toBe(2);
      return r.err.replace(`${dir}/`, '');
    };
    expect(await t('max-warnings = "ten"\n')).toContain("ptolog.toml:1:1: error[config]: 'max-warnings' must be a non-negative integer");
    expect(await t('\npasses = ["insert-com-fence"]\n')).toContain(
      "ptolog.toml:2:1: error[config]: unknown pass 'insert-com-fence' — did you mean 'insert-comm-fence'?",
    );
    expect(await t('a = 1\n[x\n')).toMatch(/ptolog\.toml:2:\d+: error\[config\]: invalid TOML/);
  });
});

describe('suppression comments', () => {
  const kernel = (edit: (lines: string[]) => void): string => {
    const lines = RING.split('\n');
    edit(lines);
    return lines.join('\n');
  };

  it('on the line or the line above drops that code there', async () => {
    const text = kernel((l) => {
      l[26] += '  # ptolog: ignore[missing-marker]';
      l.splice(29, 0, '            # ptolog: ignore[missing-marker, contract-violation]');
    });
    const dir = tree({ 'k.py': text });
    const r = await run(['audit', '--as-written', ...ONLY, join(dir, 'k.py')]);
    expect(codes(r.out)).not.toContain('missing-marker');
    expect(codes(r.out)).toContain('contract-violation');
  });

  it('ignore-file drops a code in the whole file', async () => {
    const dir = tree({ 'k.py': `# ptolog: ignore-file[contract-violation]\n${RING}` });
    const r = await run(['audit', ...ONLY, join(dir, 'k.py')]);
    expect(codes(r.out)).toEqual(['missing-marker', 'missing-marker']);
  });

  it('unused suppressions are reported with --report-unused-ignores', async () => {
    const text = kernel((l) => {
      l[24] += '  # ptolog: ignore[missing-marker]';
    });
    const dir = tree({ 'k.py': text });
    const p = join(dir, 'k.py');
    expect(codes((await run(['audit', ...ONLY, p])).out)).not.toContain('unused-suppression');
    const r = await run(['audit', ...ONLY, '--report-unused-ignores', p]);
    expect(r.out).toContain(`${p}:25:`);
    expect(r.out).toMatch(/warning\[unused-suppression\]: nothing here is reported as missing-marker/);
  });

  it('an unknown code is a warning', async () => {
    const text = kernel((l) => {
      l[26] += '  # ptolog: ignore[mising-marker]';
    });
    const dir = tree({ 'k.py': text });
    const r = await run(['audit', ...ONLY, join(dir, 'k.py')]);
    expect(r.out).toMatch(/k\.py:27:\d+: warning\[unknown-suppression-code\]: the suppression names mising-marker/);
  });
});

describe('thresholds and output', () => {
  it('--fail-on decides the exit code', async () => {
    // phase_fence.py has only a note.
    expect((await run(['audit', 'examples/phase_fence.py'])).code).toBe(0);
    expect((await run(['audit', '--fail-on', 'note', 'examples/phase_fence.py'])).code).toBe(1);
    expect((await run(['audit', '--fail-on', 'error', 'examples/cache_bypass.py'])).code).toBe(0);
    expect((await run(['audit', 'examples/cache_bypass.py'])).code).toBe(1);
  });

  it('--max-warnings N fails above N warnings', async () => {
    expect((await run(['audit', '--fail-on', 'error', '--max-warnings', '2', 'examples/cache_bypass.py'])).code).toBe(0);
    expect((await run(['audit', '--fail-on', 'error', '--max-warnings', '1', 'examples/cache_bypass.py'])).code).toBe(1);
  });

  it('--quiet shows errors only; --statistics counts per code', async () => {
    const q = await run(['audit', '--as-written', '--quiet', 'examples/ring_allreduce.py']);
    expect(new Set(codes(q.out))).toEqual(new Set(['contract-violation']));
    const s = await run(['audit', '--as-written', '--statistics', 'examples/ring_allreduce.py']);
    expect(s.out).toMatch(/\n4 {2}contract-violation \(error\)\n2 {2}missing-marker \(warning\)\n$/);
  });

  it('--color always colours, never and NO_COLOR do not', async () => {
    const always = await run(['audit', '--color', 'always', 'examples/ring_allreduce.py']);
    expect(always.out).toContain('\x1b[');
    const tty = { stdoutIsTTY: true, stderrIsTTY: true };
    expect((await run(['audit', 'examples/ring_allreduce.py'], tty)).out).toContain('\x1b[');
    expect((await run(['audit', 'examples/ring_allreduce.py'], { ...tty, env: { NO_COLOR: '1' } })).out).not.toContain('\x1b[');
    expect((await run(['audit', '--color', 'never', 'examples/ring_allreduce.py'], tty)).out).not.toContain('\x1b[');
  });

  it("JSON findings carry byte offsets and the fix as an edit; applying the edits gives apply's result", async () => {
    const r = await run(['audit', ...ONLY, '--format', 'json', 'examples/ring_allreduce.py']);
    const ds = JSON.parse(r.out).diagnostics as {
      code: string;
      startOffset: number;
      endOffset: number;
      fixEdits?: { startOffset: number; endOffset: number; text: string }[];
    }[];
    const mm = ds.filter((d) => d.code === 'missing-marker');
    expect(Buffer.from(RING).subarray(mm[0]!.startOffset, mm[0]!.endOffset).toString()).toMatch(/^pld\.tile\.remote_store\(/);
    let bytes = Buffer.from(RING);
    for (const e of mm.flatMap((d) => d.fixEdits ?? []).sort((a, b) => b.startOffset - a.startOffset)) {
      bytes = Buffer.concat([bytes.subarray(0, e.startOffset), Buffer.from(e.text), bytes.subarray(e.endOffset)]);
    }
    expect(bytes.toString()).toBe((await run(['apply', ...ONLY, 'examples/ring_allreduce.py'])).out);
  });

  it('SARIF results carry fixes as artifactChanges', async () => {
    const r = await run(['audit', ...ONLY, '--format', 'sarif', 'examples/ring_allreduce.py']);
    const results = JSON.parse(r.out).runs[0].results as {
      ruleId: string;
      fixes?: {
        artifactChanges: {
          artifactLocation: { uri: string };
          replacements: { deletedRegion: { startLine: number }; insertedContent: { text: string } }[];
        }[];
      }[];
    }[];
    const fixed = results.filter((x) => x.fixes);
    expect(fixed.map((x) => x.ruleId)).toEqual(['missing-marker', 'missing-marker']);
    const change = fixed[0]!.fixes![0]!.artifactChanges[0]!;
    expect(change.artifactLocation.uri).toBe('examples/ring_allreduce.py');
    expect(change.replacements[0]).toEqual({
      deletedRegion: { startLine: 28, startColumn: 1, endLine: 28, endColumn: 1 },
      insertedContent: { text: '            pl.system.fence()\n' },
    });
  });
});

describe('README', () => {
  it("names every flag of every command's --help", async () => {
    const readme = readFileSync('README.md', 'utf8');
    const top = await run(['--help']);
    const commands = [...top.out.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    const missing: string[] = [];
    for (const c of commands) {
      const h = await run([c, '--help']);
      for (const m of h.out.matchAll(/^ {2}(?:(-\w), )?(--[a-z-]+)/gm)) {
        if (m[2] === '--help') continue;
        if (!readme.includes(m[2]!)) missing.push(`${c} ${m[2]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

void mkdirSync;
void writeFileSync;

describe('-D over many files', () => {
  it('warns about a name no file mentions once, and not about one some file uses', async () => {
    const typo = await run(['audit', '-D', 'NRNAKS=8', 'examples/ring_allreduce.py', 'examples/mesh_gather.py']);
    expect(typo.out.match(/unknown-define/g)).toHaveLength(1);
    const used = await run(['audit', '-D', 'CHUNK=32', 'examples/ring_allreduce.py', 'examples/phase_fence.py']);
    expect(used.out).not.toContain('unknown-define');
  });
});
