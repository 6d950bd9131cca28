/**
 * The CLI's exit-code contract, table-driven over every command and every kind of bad input:
 * 0 clean, 1 findings, 2 could not run — never a stack trace, never a silent success.
 */

import type { Dirent } from 'node:fs';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTargets } from '../../src/cli/targets.js';
import { run, tree } from './helpers.js';

const WARN = resolve('examples/cache_bypass.py'); // two warnings
const NOTES = resolve('examples/phase_fence.py'); // notes only
const dir = tree({ 'a.dl': '.decl p(x: number)\n.output p\np(1).\n', 'readme.txt': 'no python here\n' });
const empty = join(dir, 'empty');
mkdirSync(empty);
const missing = join(dir, 'missing.py');
const out = join(dir, 'out');
// An output directory whose output files are directories.
const blocked = join(dir, 'blocked');
mkdirSync(join(blocked, 'span.facts'), { recursive: true });
mkdirSync(join(blocked, 'p.csv'));

/** No stack trace, whatever the input: no `    at f (file:line)` frame, no Node error class dump. */
function noStackTrace(err: string): void {
  expect(err).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
  expect(err).not.toMatch(/^(DiagnosticError|TypeError|Error): /m);
  expect(err).not.toContain('internal error');
}

type Row = [what: string, args: string[], code: 0 | 1 | 2];

const rows: Row[] = [
  // 0 clean, 1 findings.
  ['audit: notes only', ['audit', NOTES], 0],
  ['audit: warnings', ['audit', WARN], 1],
  ['audit --fail-on error: warnings', ['audit', '--fail-on', 'error', WARN], 0],
  ['audit --max-warnings 1: two warnings', ['audit', '--fail-on', 'error', '--max-warnings', '1', WARN], 1],
  ['apply: prints the result', ['apply', WARN], 0],
  ['fmt: prints', ['fmt', NOTES], 0],
  ['run: evaluates', ['run', join(dir, 'a.dl'), '-D', '-'], 0],
  // Bad option values: usage errors.
  ...(['-1', 'abc', '1.5', ''] as const).map(
    (v): Row => [`audit --max-warnings ${JSON.stringify(v)}`, ['audit', '--max-warnings', v, NOTES], 2],
  ),
  ...(['abc', '-2', '1.5'] as const).flatMap((v): Row[] => [
    [`audit -j ${v}`, ['audit', '-j', v, NOTES], 2],
    [`apply -j ${v}`, ['apply', '-j', v, NOTES], 2],
  ]),
  ['apply --max-warnings (an audit option)', ['apply', '--max-warnings', '3', NOTES], 2],
  ['audit --timeout 0', ['audit', '--timeout', '0', NOTES], 2],
  ['audit --max-tuples abc', ['audit', '--max-tuples', 'abc', NOTES], 2],
  ['audit --format xml', ['audit', '--format', 'xml', NOTES], 2],
  ['audit --color sometimes', ['audit', '--color', 'sometimes', NOTES], 2],
  ['audit --fail-on fatal', ['audit', '--fail-on', 'fatal', NOTES], 2],
  ['run --max-tuples -1', ['run', join(dir, 'a.dl'), '-D', '-', '--max-tuples', '-1'], 2],
  ['run --timeout abc', ['run', join(dir, 'a.dl'), '-D', '-', '--timeout', 'abc'], 2],
  ['verify --runs 1.5', ['verify', '--runs', '1.5'], 2],
  ['verify --seed x', ['verify', '--seed', 'x'], 2],
  ['verify --timeout -3', ['verify', '--timeout', '-3'], 2],
  ['explain: not FILE:LINE', ['explain', NOTES], 2],
  ['explain: line 0', ['explain', `${NOTES}:0`], 2],
  // Unknown options and missing arguments, on every command.
  ...[
    'audit',
    'apply',
    'explain',
    'graph',
    'fmt',
    'facts',
    'run',
    'check-rules',
    'explain-tuple',
    'why-not',
    'rules',
    'test',
    'verify',
    'lsp',
  ].map((c): Row => [`${c} --no-such-option`, [c, '--no-such-option'], 2]),
  ...['apply', 'explain', 'graph', 'fmt', 'facts', 'run', 'check-rules'].map((c): Row => [`${c} without its argument`, [c], 2]),
  ['an unknown command', ['audti'], 2],
  // Paths that cannot be read.
  ...(['audit', 'apply', 'fmt'] as const).map((c): Row => [`${c}: a missing path beside a good one`, [c, NOTES, missing], 2]),
  ['explain: a missing file', ['explain', `${missing}:3`], 2],
  ['graph: a missing file', ['graph', missing], 2],
  ['facts: a missing file', ['facts', missing, '--out', out], 2],
  ['run: a missing rule file', ['run', join(dir, 'nope.dl')], 2],
  ['check-rules: a missing rule file', ['check-rules', join(dir, 'nope.dl')], 2],
  ['explain-tuple: a missing rule file', ['explain-tuple', join(dir, 'nope.dl'), 'p(1)'], 2],
  ['test: a missing folder', ['test', missing], 2],
  ['test /dev/null', ['test', '/dev/null'], 2],
  ['audit: a glob matching nothing', ['audit', join(dir, '*.pyx')], 2],
  // Nothing to read at all.
  ...(['audit', 'apply', 'fmt', 'test'] as const).map((c): Row => [`${c}: a folder without .py files`, [c, dir], 2]),
  ['audit: an empty folder', ['audit', empty], 2],
  ['fmt --check: an empty folder', ['fmt', '--check', empty], 2],
  ['audit --format json: an empty folder', ['audit', '--format', 'json', empty], 2],
  // Unwritable outputs.
  ['facts --out through a file', ['facts', NOTES, '--out', join(WARN, 'x')], 2],
  ['facts --out where DIR/span.facts is a directory', ['facts', NOTES, '--out', blocked], 2],
  ['facts --out /proc/self', ['facts', NOTES, '--out', '/proc/self'], 2],
  ['run -D where DIR/p.csv is a directory', ['run', join(dir, 'a.dl'), '-D', blocked], 2],
];

describe('the exit-code contract (0 clean, 1 findings, 2 could not run)', () => {
  it.each(rows)('%s', async (_what, args, code) => {
    const r = await run(args);
    expect(r.code, r.err).toBe(code);
    noStackTrace(r.err);
    // Said somewhere: on stderr, or (json / sarif) inside the document.
    if (code === 2) expect(r.err + r.out).not.toBe('');
  });

  it('an output file that cannot be written is a located unwritable-output error, not an internal error', async () => {
    const r = await run(['facts', NOTES, '--out', blocked]);
    expect(r.err).toContain(
      `${join(blocked, 'span.facts')}: error[unwritable-output]: cannot write ${join(blocked, 'span.facts')} (--out ${blocked}): a directory is in the way.`,
    );
    expect((await run(['run', join(dir, 'a.dl'), '-D', blocked])).err).toContain('error[unwritable-output]');
    expect((await run(['facts', NOTES, '--out', '/proc/self'])).err).toContain('error[unwritable-output]');
  });

  it.each([
    ['audit', []],
    ['apply', []],
    ['fmt', []],
    ['graph', []],
    ['facts', ['--out', out]],
  ])('%s: a path through a file (ENOTDIR) gets the one message every command gives', async (c, extra) => {
    const r = await run([c, `${WARN}/x.py`, ...extra]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot read ${WARN}/x.py: a part of the path is not a directory.`);
  });

  it('reports a bad option value as a usage error naming the value', async () => {
    const r = await run(['audit', '--max-warnings', '-1', NOTES]);
    expect(r.err).toContain('--max-warnings expects a non-negative integer, got "-1"');
    expect(r.out).toBe('');
  });
});

const SYNTAX = 'import pypto.language as pl\n\n@pl.program\nclass P:\n    def f(:\n        pass\n';

describe('a run never hides what it could not read', () => {
  it('a missing path does not stop the other files: their findings are printed, exit 2', async () => {
    const r = await run(['audit', WARN, missing]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('cache_bypass.py');
    expect(r.err).toContain('missing.py: error[unreadable-file]');
  });

  it.each(['json', 'sarif'])('--format %s stdout is one whole document with the other files and the error', async (format) => {
    const r = await run(['audit', '--format', format, WARN, missing]);
    expect(r.code).toBe(2);
    const doc = JSON.stringify(JSON.parse(r.out));
    expect(doc).toContain('unreadable-file');
    expect(doc).toContain('cache_bypass.py');
  });

  it('--format json with a configuration that cannot be read still prints a document', async () => {
    const r = await run(['audit', '--format', 'json', '--config', join(dir, 'nope.toml'), NOTES]);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.out) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code)).toEqual(['config']);
  });

  it('the summary counts read errors; --statistics lists them; -q prints no summary', async () => {
    const d = tree({ 'syntax.py': SYNTAX });
    const args = ['audit', join(d, 'syntax.py'), NOTES, missing];
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.out.trimEnd().split('\n').pop()).toBe('3 findings: 2 error(s), 0 warning(s), 1 note(s)');
    const s = await run([...args, '--statistics']);
    expect(s.out).toMatch(/1 {2}syntax-error \(error\)/);
    expect(s.out).toMatch(/1 {2}unreadable-file \(error\)/);
    const q = await run([...args, '-q']);
    expect(q.out).toBe('');
    expect(q.code).toBe(2);
  });

  it('SARIF has a result for a syntax error (and still the notification)', async () => {
    const d = tree({ 'syntax.py': SYNTAX });
    const r = await run(['audit', '--format', 'sarif', join(d, 'syntax.py')]);
    const log = JSON.parse(r.out) as {
      runs: { results: { ruleId: string }[]; invocations: { toolExecutionNotifications: unknown[] }[] }[];
    };
    expect(log.runs[0]!.results.map((x) => x.ruleId)).toEqual(['syntax-error']);
    expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications).toHaveLength(1);
  });

  it('a directory that cannot be listed is an error, not skipped in silence', () => {
    const d = tree({ 'sub/a.py': 'x = 1\n', 'locked/b.py': 'x = 1\n' });
    const t = expandTargets([d], {
      exclude: [],
      excludeRoot: d,
      readDir: (p) => {
        if (p.endsWith('locked')) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
        return readdirSync(p, { withFileTypes: true }) as Dirent[];
      },
    });
    expect(t.files.map((f) => f.slice(d.length))).toEqual(['/sub/a.py']);
    expect(t.errors.map((e) => e.message)).toEqual([
      `cannot read the directory ${join(d, 'locked')}: permission denied; its files are not checked.`,
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('a chmod 000 folder inside `audit DIR` is an error, exit 2', async () => {
    const d = tree({ 'ok/a.py': 'x = 1\n', 'locked/b.py': 'x = 1\n' });
    chmodSync(join(d, 'locked'), 0o000);
    try {
      const r = await run(['audit', d]);
      expect(r.code).toBe(2);
      expect(r.err).toContain('permission denied');
    } finally {
      chmodSync(join(d, 'locked'), 0o755);
    }
  });

  it('files without a PyPTO import get no no-program note, unless --verbose', async () => {
    const d = tree({ '__init__.py': '', 'util.py': 'import os\n' });
    const r = await run(['audit', d]);
    expect(r.code).toBe(0);
    expect(r.out).toBe('All checks passed (2 files audited).\n');
    const v = await run(['audit', '--verbose', '--fail-on', 'note', d]);
    expect(v.code).toBe(1);
    expect(v.out).toContain('note[no-program]');
    writeFileSync(join(d, 'k.py'), 'import pypto.language as pl\n');
    const k = await run(['audit', join(d, 'k.py')]);
    expect(k.out).toContain('note[no-program]'); // a PyPTO file with no kernel is still worth a note
  });
});
