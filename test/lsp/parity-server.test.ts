// The language server (a real `ptolog lsp` over stdio, as an editor runs it) publishes exactly
// `ptolog audit`'s findings — place, severity, code, message and fix line — on every golden input
// whose audit command the server can be started with (--pass, --rules, -D, --as-written / --stage).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { initialize, open, type Server, startServer, stop } from './client.js';
import { cliFindings, root, suites } from './parity-common.js';

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
