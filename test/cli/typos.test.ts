/**
 * Typos are never accepted in silence: a `-D` name no file mentions (every command that takes
 * -D), an unknown code in the configuration or in a suppression comment — each warned, with the
 * closest known name. A suppression names any code of the catalogs the run loads (user
 * contracts and --rules-root too). Suppressions live in real comments only.
 */

import { appendFileSync, cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceText } from '../../src/report/source.js';
import { parseSuppressions } from '../../src/suppress/suppress.js';
import { run, tree } from './helpers.js';

const K = resolve('examples/ring_allreduce.py');

describe('-D NAME=VALUE typos', () => {
  it.each([
    ['audit', ['audit', '-D', 'NRNAKS=8', K]],
    ['apply', ['apply', '-D', 'NRNAKS=8', K]],
    ['explain', ['explain', '-D', 'NRNAKS=8', `${K}:1`]],
    ['graph', ['graph', '-D', 'NRNAKS=8', K]],
    ['fmt', ['fmt', '-D', 'NRNAKS=8', K]],
    ['facts', ['facts', '-D', 'NRNAKS=8', K, '--out', mkdtempSync(join(tmpdir(), 'ptolog-facts-'))]],
  ])('%s warns about a name the file never mentions', async (_c, args) => {
    const r = await run(args);
    expect(r.out + r.err).toContain('warning[unknown-define]');
    expect(r.out + r.err).toContain('NRNAKS');
  });
});

describe('unknown codes in the configuration', () => {
  it('[tool.ptolog.severity] and per-file-ignores: a located warning with "did you mean"', async () => {
    const d = tree({
      'pyproject.toml':
        '[tool.ptolog]\n\n[tool.ptolog.severity]\nmissing-markr = "error"\n\n[tool.ptolog.per-file-ignores]\n"k.py" = ["contract-violaton"]\n',
      'k.py': `@${K}`,
    });
    const r = await run(['audit', '--fail-on', 'error', join(d, 'k.py')]);
    expect(r.out).toContain(
      `${join(d, 'pyproject.toml')}:4:1: warning[unknown-config-code]: unknown code 'missing-markr' in severity (it has no effect) — did you mean 'missing-marker'?`,
    );
    expect(r.out).toContain(
      `${join(d, 'pyproject.toml')}:7:12: warning[unknown-config-code]: unknown code 'contract-violaton' in per-file-ignores (it has no effect) — did you mean 'contract-violation'?`,
    );
  });

  it('a known code gets no warning', async () => {
    const d = tree({ 'ptolog.toml': '[severity]\ncompressible-fanout = "off"\n', 'k.py': `@${K}` });
    const r = await run(['audit', join(d, 'k.py')]);
    expect(r.out).not.toContain('warning[unknown-config-code]');
  });
});

describe('suppression comments', () => {
  it('an unknown code: warning with "did you mean"', async () => {
    const d = tree({ 'k.py': `# ptolog: ignore-file[missing-markr]\n` });
    const r = await run(['audit', '--verbose', join(d, 'k.py')]);
    expect(r.out).toContain('the suppression names missing-markr, which is no code ptolog reports (did you mean missing-marker?)');
  });

  it("a user contract's code (its diagnostics.toml) and a --rules-root's codes are known", async () => {
    const user = mkdtempSync(join(tmpdir(), 'ptolog-user-'));
    cpSync('rules/examples/syncall_handoff', user, { recursive: true });
    const d = tree({ 'k.py': `# ptolog: ignore-file[my-own-code]\n` });
    const unknown = await run(['audit', '--verbose', join(d, 'k.py')]);
    expect(unknown.out).toContain('unknown-suppression-code');
    writeFileSync(join(user, 'diagnostics.toml'), '[my-own-code]\nseverity = "warning"\nsummary = "s"\nhelp = "h"\nexample = "e"\n');
    const withUser = await run(['audit', '--verbose', '--rules', user, join(d, 'k.py')]);
    expect(withUser.out + withUser.err).not.toContain('unknown-suppression-code');
    const root = join(mkdtempSync(join(tmpdir(), 'ptolog-root-')), 'rules');
    cpSync('rules', root, { recursive: true });
    appendFileSync(
      join(root, 'insert_comm_fence', 'diagnostics.toml'),
      '\n[my-own-code]\nseverity = "warning"\nsummary = "s"\nhelp = "h"\nexample = "e"\n',
    );
    const withRoot = await run(['audit', '--verbose', '--rules-root', root, join(d, 'k.py')]);
    expect(withRoot.out + withRoot.err).not.toContain('unknown-suppression-code');
  });

  it('only real comments suppress: not a docstring or a string literal', () => {
    const text = [
      '"""Module docs.',
      '# ptolog: ignore-file',
      '"""',
      "x = '# ptolog: ignore[missing-marker]'",
      's = """',
      '  # ptolog: ignore-file[contract-violation]',
      '"""  # ptolog: ignore[compressible-fanout]',
      "y = 'it''s'  # ptolog: ignore",
      '',
    ].join('\n');
    const sups = parseSuppressions(new SourceText('k.py', text));
    expect(sups.map((s) => [s.line, s.fileWide, s.codes.map((c) => c.code)])).toEqual([
      [7, false, ['compressible-fanout']],
      [8, false, []],
    ]);
  });
});
