// What the parity tests share: the golden suites' audit commands and the CLI's findings on them
// (test/lsp/parity-server.test.ts, test/lsp/parity-playground.test.ts).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { main } from '../../src/cli/main.js';
import { session } from '../session.js';

export const root = resolve('.');

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

/** `ptolog audit --format json` findings on `input`, one line each, sorted. */
export async function cliFindings(flags: string[], input: string, withNotes = true): Promise<string[]> {
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

export interface Suite {
  dir: string;
  flags: string[];
  inputs: string[];
}

/** The golden suites' audit commands the server can run, with their inputs. */
export function suites(): Suite[] {
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
