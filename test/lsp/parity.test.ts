// Every front end gives the same findings for the same text: the language server (a real
// `ptolog lsp` over stdio, as an editor runs it) publishes exactly `ptolog audit`'s findings —
// place, severity, code, message and fix line — on every golden input whose audit command the
// server can be started with (--pass, --rules, -D, --as-written / --stage); the playground's
// analysis (its worker's PlaygroundAnalyzer, every pass, no project around the kernel) on every
// golden input audited with every pass.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { main } from '../../src/cli/main.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import { SourceText } from '../../src/report/source.js';
import { initialize, open, type Server, startServer, stop } from './client.js';

// (The playground's in-memory file system holds its extra rules; here the rules are read from disk.)
vi.mock('../../playground/src/shims/fs.js', () => ({ setVirtualFile: () => undefined }));

const root = resolve('.');
const session = new RuleSession();

interface JsonDiagnostic {
  severity: string;
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  fix?: string;
  notes?: string[];
}

async function cliFindings(flags: string[], input: string, withNotes = true): Promise<string[]> {
  let out = '';
  await main(['audit', '--format', 'json', ...flags, input], { stdout: (t) => (out += t), stderr: () => undefined, ruleSession: session });
  const ds = (JSON.parse(out) as { diagnostics: JsonDiagnostic[] }).diagnostics;
  return ds
    .map((d) => {
      if (d.file !== input || d.line === undefined) return `elsewhere ${d.severity} ${d.code}`;
      const notes = withNotes ? (d.notes ?? []).map((n) => `\nnote: ${n}`).join('') : '';
      const message = d.message + (d.fix ? `\nfix: ${d.fix}` : '') + notes;
      return `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.severity} ${d.code} ${message}`;
    })
    .sort();
}

const SEVERITY = ['', 'error', 'warning', 'note', 'note'];

/** The server's findings, as cliFindings gives them (the document named by its path relative to the repository, as the CLI was given it). */
function lspFindings(ds: Diagnostic[], input: string): string[] {
  return ds
    .map((d) => {
      // (The server names files by absolute path, the CLI as it was given them: relative to the repository.)
      const message = (typeof d.message === 'string' ? d.message : (d.message as { value: string }).value)
        .replaceAll(resolve(input), input)
        .replaceAll(`${root}/`, '');
      const r = d.range;
      // A diagnostic located in another file (a rule file) is shown at the top, its place in the message.
      if (/^\S+:\d+:\d+: /.test(message) && r.start.line === 0 && r.end.character === 0)
        return `elsewhere ${SEVERITY[d.severity ?? 1]} ${String(d.code)}`;
      return `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1} ${SEVERITY[d.severity ?? 1]} ${String(d.code)} ${message}`;
    })
    .sort();
}

interface Suite {
  dir: string;
  flags: string[];
  inputs: string[];
}

/** The golden suites' audit commands the server can run, with their inputs. */
function suites(): Suite[] {
  const out: Suite[] = [];
  const walk = (dir: string): void => {
    const cfg = join(dir, 'suite.json');
    if (existsSync(cfg)) {
      const c = JSON.parse(readFileSync(cfg, 'utf8')) as { ext?: string; commands: { args: string[] }[]; inputs?: { path: string }[] };
      if ((c.ext ?? '.py') === '.py') {
        const inputs = [
          ...readdirSync(dir)
            .filter((n) => n.endsWith('.py') && statSync(join(dir, n)).isFile())
            .map((n) => relative(root, join(dir, n))),
          ...(c.inputs ?? []).map((x) => x.path),
        ];
        const seen = new Set<string>();
        for (const cmd of c.commands) {
          if (cmd.args[0] !== 'audit' || cmd.args.at(-1) !== '{input}') continue;
          const flags = cmd.args.slice(1, -1);
          const i = flags.indexOf('--format');
          if (i >= 0) flags.splice(i, 2);
          const supported = flags.every(
            (f, k) =>
              ['--pass', '--rules', '-D', '--as-written', '--stage'].includes(f) ||
              ['--pass', '--rules', '-D', '--stage'].includes(flags[k - 1] ?? ''),
          );
          if (!supported || flags.some((f) => f.includes('{')) || seen.has(flags.join(' '))) continue;
          seen.add(flags.join(' '));
          out.push({ dir: relative(root, dir), flags, inputs });
        }
      }
    }
    for (const n of readdirSync(dir).sort()) if (statSync(join(dir, n)).isDirectory()) walk(join(dir, n));
  };
  walk(join(root, 'specs'));
  return out;
}

/** Suites the server does not match yet, and why (each one a known divergence to remove). */
const NOT_YET = new Map<string, string>();

describe('ptolog lsp publishes what ptolog audit reports', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill();
  });
  for (const suite of suites()) {
    const why = NOT_YET.get(suite.dir);
    it.skipIf(why !== undefined)(
      `${suite.dir}: audit ${suite.flags.join(' ')} (${suite.inputs.length} inputs)${why ? ` — skipped: ${why}` : ''}`,
      async () => {
        const s = startServer(suite.flags);
        servers.push(s);
        await initialize(s, root);
        for (const input of suite.inputs) {
          const text = readFileSync(input, 'utf8');
          const published = await open(s, pathToFileURL(resolve(input)).href, text);
          expect({ input, findings: lspFindings(published.diagnostics, input) }).toEqual({
            input,
            findings: await cliFindings(suite.flags, input),
          });
        }
        expect(await stop(s)).toBe(0);
        expect(s.logs.filter((l) => l.includes('internal error'))).toEqual([]);
      },
      300_000,
    );
  }

  it('the inline helper: the marker inside the helper, at 12:5, as the CLI reports it (not an opaque write at the call)', async () => {
    const s = startServer(['--as-written', '--pass', 'insert-comm-fence']);
    servers.push(s);
    await initialize(s, root);
    const input = 'specs/insert_comm_fence/inline_helper.py';
    const p = await open(s, pathToFileURL(resolve(input)).href, readFileSync(input, 'utf8'));
    expect(p.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)}`).sort()).toEqual([
      '12:5 contract-violation',
      '12:5 missing-marker',
    ]);
    expect(p.diagnostics.find((d) => d.code === 'missing-marker')!.message).toContain(
      '\nfix: insert after it: pl.system.cacheinvalid(dst, [1, 8], [0, 0]); pl.system.fence()',
    );
    expect(await stop(s)).toBe(0);
  }, 60_000);
});

/** What the playground's analysis gives (playground/src/analysis.ts, imported by path: its types are the playground's). */
interface PlaygroundFinding {
  severity: string;
  code: string;
  message: string;
  file: string;
  from: number;
  to: number;
  fix?: string;
  pass: string;
}
interface PlaygroundAnalyzerLike {
  analyzeSteps(
    id: number,
    kernel: string,
    rules: string,
    asWritten?: boolean,
  ): Generator<unknown, { kind: string; findings?: PlaygroundFinding[]; message?: string }, void>;
}

/** The findings of the playground's analysis of `text`, as cliFindings gives them (without notes: the page shows none). */
async function playgroundFindings(
  analyzer: PlaygroundAnalyzerLike,
  text: string,
  input: string,
  asWritten: boolean,
  only: string[],
): Promise<string[]> {
  const steps = analyzer.analyzeSteps(1, text, '', asWritten);
  let step = steps.next();
  while (!step.done) step = steps.next();
  const r = step.value;
  if (r.kind !== 'analyzed') throw new Error(`the playground failed: ${r.message}`);
  const src = new SourceText(input, text);
  return r
    .findings!.filter((f) => only.length === 0 || f.pass === '' || only.includes(f.pass))
    .map((f) => {
      if (f.file !== 'kernel.py') return `elsewhere ${f.severity} ${f.code}`;
      const a = src.position(f.from);
      const b = src.position(f.to);
      const message = f.message.replaceAll('kernel.py', input) + (f.fix ? `\nfix: ${f.fix}` : '');
      return `${a.line}:${a.col}-${b.line}:${b.col} ${f.severity} ${f.code} ${message}`;
    })
    .sort();
}

/** The CLI's findings as the playground shows them (no notes). */
async function cliFindingsNoNotes(flags: string[], input: string): Promise<string[]> {
  return (await cliFindings(flags, input, false)).sort();
}

/** Suites the playground does not match, and why. */
const PLAYGROUND_NOT = new Map([['specs/modules', 'the playground holds one file: there is no project to import helpers from']]);
for (const s of suites()) {
  if (existsSync(join(root, s.dir, 'pyproject.toml')) || existsSync(join(root, s.dir, 'ptolog.toml')))
    PLAYGROUND_NOT.set(s.dir, 'the playground reads no configuration file');
}

describe("the playground's analysis reports what ptolog audit reports", () => {
  // Every pass (the playground runs them all), or some passes as written (then no contract composes with another).
  const asWrittenFlag = (f: string[]): boolean => f.includes('--as-written') || f.join(' ').includes('--stage as-written');
  const playgroundSuites = suites().filter((s) => {
    if (s.flags.some((f) => f === '-D' || f === '--rules')) return false;
    return !s.flags.includes('--pass') || asWrittenFlag(s.flags);
  });
  for (const suite of playgroundSuites) {
    const why = PLAYGROUND_NOT.get(suite.dir);
    it.skipIf(why !== undefined)(
      `${suite.dir}: audit ${suite.flags.join(' ')} (${suite.inputs.length} inputs)${why ? ` — skipped: ${why}` : ''}`,
      async () => {
        const path = '../../playground/src/analysis.js';
        const { PlaygroundAnalyzer } = (await import(path)) as {
          PlaygroundAnalyzer: new (session: RuleSession) => PlaygroundAnalyzerLike;
        };
        // (Rule paths shown from here, as the CLI shows them; the page shows them from its virtual root.)
        const analyzer = new PlaygroundAnalyzer(new RuleSession());
        const asWritten = asWrittenFlag(suite.flags);
        const only = suite.flags.flatMap((f, k) => (suite.flags[k - 1] === '--pass' ? [f] : []));
        for (const input of suite.inputs) {
          const text = readFileSync(input, 'utf8');
          expect({ input, findings: await playgroundFindings(analyzer, text, input, asWritten, only) }).toEqual({
            input,
            findings: await cliFindingsNoNotes(suite.flags, input),
          });
        }
      },
      300_000,
    );
  }
});
