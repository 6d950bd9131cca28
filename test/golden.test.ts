/**
 * Golden cases: every `specs/<suite>/` holds a `suite.json` naming the commands to run on each
 * case, the case inputs, and the expected results side by side:
 *
 *   specs/<suite>/suite.json          {"ext": ".py", "commands": [{"name": "fmt", "args": ["fmt", "{input}"]}]}
 *   specs/<suite>/<case>.py           the input
 *   specs/<suite>/<case>.<name>.out   expected stdout of command <name>
 *   specs/<suite>/<case>.<name>.err   expected exit code (first line, `exit N`) and stderr
 *
 * `{input}` is the case path, `{stem}` the case path without its extension, `{line}` the number
 * written in the case's `# explain-line: N` comment. A suite may also run on files kept
 * elsewhere in the repository (`"inputs": [{"path": "examples/k.py", "line": 12}]`); their
 * expected files are kept in the suite folder under the file's base name. Commands run
 * in-process with the repository root as working directory. `npm run accept` rewrites every
 * expected file from the current behaviour (review the diff before committing it).
 *
 * A known bug is a case with a `<case>.known-bug.json` beside it (never rewritten by accept):
 *
 *   {"issue": 28, "command": "audit", "why": "the helper's wait gets no invalidate",
 *    "exit": 0, "stdoutContains": ["missing-marker"], "stdoutLacks": ["opaque"]}
 *
 * It runs `command` (one of the suite's) and asserts the correct behaviour it describes, as a
 * test expected to fail (`it.fails`): while the bug is there the suite is green; once it is
 * fixed the test passes, vitest reports that as a failure, and the case becomes a plain golden.
 */

import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run } from './cli/helpers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const specsDir = join(root, 'specs');
const accept = process.env['PTOLOG_ACCEPT'] === '1';

/** What a known-bug case must do once its bug is fixed (see the header). */
interface KnownBug {
  issue: number;
  command: string;
  why: string;
  exit?: number;
  stdoutContains?: string[];
  stdoutLacks?: string[];
  stderrContains?: string[];
}

interface SuiteConfig {
  ext?: string;
  commands: { name: string; args: string[] }[];
  /** Cases kept elsewhere in the repository (paths relative to its root); `line` for `{line}` defaults to the file's `# explain-line: N`. */
  inputs?: { path: string; line?: number }[];
}

/** Runs the CLI in-process with the repository root as working directory. */
async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const r = await run(args);
    return { code: r.code, stdout: r.out, stderr: r.err };
  } finally {
    process.chdir(cwd);
  }
}

function suites(): string[] {
  if (!existsSync(specsDir)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (existsSync(join(dir, 'suite.json'))) out.push(dir);
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
    }
  };
  walk(specsDir);
  return out.sort();
}

for (const suiteDir of suites()) {
  const config = JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')) as SuiteConfig;
  const ext = config.ext ?? '.py';
  const cases = readdirSync(suiteDir)
    .filter((n) => n.endsWith(ext) && !/\.[A-Za-z0-9_-]+\.out$/.test(n) && !n.includes('.out') && statSync(join(suiteDir, n)).isFile())
    .sort();
  const all = [
    ...cases.map((file) => {
      const input = relative(root, join(suiteDir, file));
      const line = /# explain-line: (\d+)/.exec(readFileSync(join(root, input), 'utf8'))?.[1] ?? '1';
      return { name: file, input, expected: input.slice(0, -ext.length), line };
    }),
    ...(config.inputs ?? []).map((x) => {
      const base = x.path
        .split('/')
        .pop()!
        .replace(/\.[^.]+$/, '');
      const written = /# explain-line: (\d+)/.exec(readFileSync(join(root, x.path), 'utf8'))?.[1];
      return { name: x.path, input: x.path, expected: relative(root, join(suiteDir, base)), line: String(x.line ?? written ?? 1) };
    }),
  ];
  describe(`golden ${relative(specsDir, suiteDir)}`, () => {
    for (const c of all) {
      const stem = c.input.replace(/\.[^./]+$/, '');
      const bugPath = join(root, `${c.expected}.known-bug.json`);
      if (existsSync(bugPath)) {
        const bug = JSON.parse(readFileSync(bugPath, 'utf8')) as KnownBug;
        const cmd = config.commands.find((x) => x.name === bug.command);
        it(`${c.name} known bug (suite has command ${bug.command})`, () => {
          expect(cmd, `${bugPath}: the suite has no command '${bug.command}'`).toBeDefined();
        });
        it.fails(`${c.name} ${bug.command}: known bug of issue #${bug.issue}: ${bug.why}`, async () => {
          const args = cmd!.args.map((a) => a.replaceAll('{input}', c.input).replaceAll('{stem}', stem).replaceAll('{line}', c.line));
          const r = await runCli(args);
          if (bug.exit !== undefined) expect(r.code).toBe(bug.exit);
          for (const t of bug.stdoutContains ?? []) expect(r.stdout).toContain(t);
          for (const t of bug.stdoutLacks ?? []) expect(r.stdout).not.toContain(t);
          for (const t of bug.stderrContains ?? []) expect(r.stderr).toContain(t);
        });
        continue;
      }
      for (const cmd of config.commands) {
        it(`${c.name} ${cmd.name}`, async () => {
          const args = cmd.args.map((a) => a.replaceAll('{input}', c.input).replaceAll('{stem}', stem).replaceAll('{line}', c.line));
          const r = await runCli(args);
          const outPath = join(root, `${c.expected}.${cmd.name}.out`);
          const errPath = join(root, `${c.expected}.${cmd.name}.err`);
          const err = `exit ${r.code}\n${r.stderr}`;
          if (accept) {
            writeFileSync(outPath, r.stdout);
            writeFileSync(errPath, err);
            return;
          }
          expect(existsSync(outPath), `missing ${outPath}: run npm run accept`).toBe(true);
          expect(r.stdout).toBe(readFileSync(outPath, 'utf8'));
          expect(err).toBe(readFileSync(errPath, 'utf8'));
        });
      }
    }
  });
}

describe('golden suites', () => {
  it('exist', () => {
    expect(suites().length).toBeGreaterThan(0);
  });
});
