import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { CliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { session as ruleSession } from '../session.js';

/** Runs the CLI in-process, capturing stdout and stderr. */
export async function run(args: string[], io: Partial<CliIO> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), ruleSession, ...io });
  return { code, out, err };
}

/** Runs the built CLI (dist/, as `npm test` builds it first) in a child process. */
export function runBin(
  args: string[],
  opts: { cwd?: string; input?: string; env?: Record<string, string> } = {},
): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [resolve('bin/ptolog.js'), ...args], {
    cwd: opts.cwd ?? process.cwd(),
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** A fresh temporary directory holding `files` (path → text; a value starting with `@` copies that repository file). */
export function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-i13-'));
  for (const [p, t] of Object.entries(files)) {
    const full = join(dir, p);
    mkdirSync(dirname(full), { recursive: true });
    if (t.startsWith('@')) copyFileSync(t.slice(1), full);
    else writeFileSync(full, t);
  }
  return dir;
}
