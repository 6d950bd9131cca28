// The VS Code extension (editors/vscode): which server it starts (never a download), what it
// contributes, and the real server driven exactly as the extension configures it (the command
// it resolves, `lsp --stdio`, initializationOptions.clientCommands, the ptolog settings pulled
// with workspace/configuration, the contributed commands sent as workspace/executeCommand).

import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { main } from '../../src/cli/main.js';
import { applyEdits } from './client.js';

const require = createRequire(import.meta.url);
const { serverCommand } = require('../../editors/vscode/server-command.js') as {
  serverCommand: (o: { configured: string; folders: string[]; envPath: string; platform: string }) => { command?: string; error?: string };
};
const ext = 'editors/vscode';
const manifest = JSON.parse(readFileSync(join(ext, 'package.json'), 'utf8')) as {
  publisher?: string;
  license?: string;
  repository?: unknown;
  scripts?: Record<string, string>;
  engines: { vscode: string };
  dependencies: Record<string, string>;
  contributes: {
    commands: { command: string; title: string }[];
    configuration: { properties: Record<string, { description?: string; markdownDescription?: string; default?: unknown }> };
  };
};

/** A workspace folder whose node_modules/.bin/ptolog is this checkout's bin/ptolog.js. */
function workspace(): string {
  const ws = mkdtempSync(join(tmpdir(), 'ptolog-vscode-'));
  mkdirSync(join(ws, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(resolve('bin/ptolog.js'), join(ws, 'node_modules', '.bin', 'ptolog'));
  return ws;
}

describe('the VS Code extension', () => {
  it("starts the workspace's own ptolog, else the one on PATH, else the configured path; never npx", () => {
    const ws = workspace();
    expect(serverCommand({ configured: '', folders: [ws], envPath: '', platform: 'linux' })).toEqual({
      command: join(ws, 'node_modules', '.bin', 'ptolog'),
    });
    const bin = mkdtempSync(join(tmpdir(), 'ptolog-path-'));
    writeFileSync(join(bin, 'ptolog'), '#!/bin/sh\n');
    chmodSync(join(bin, 'ptolog'), 0o755);
    const empty = mkdtempSync(join(tmpdir(), 'ptolog-empty-'));
    expect(serverCommand({ configured: '', folders: [empty], envPath: ['/nonexistent', bin].join(delimiter), platform: 'linux' })).toEqual({
      command: join(bin, 'ptolog'),
    });
    expect(serverCommand({ configured: 'node_modules/.bin/ptolog', folders: [empty, ws], envPath: bin, platform: 'linux' })).toEqual({
      command: join(ws, 'node_modules', '.bin', 'ptolog'),
    });
    const missing = serverCommand({ configured: '', folders: [empty], envPath: '/nonexistent', platform: 'linux' });
    expect(missing.error).toMatch(/ptolog was not found .* nothing is downloaded/);
    expect(serverCommand({ configured: '/no/such/ptolog', folders: [ws], envPath: bin, platform: 'linux' }).error).toMatch(
      /^ptolog\.path: \/no\/such\/ptolog is not a file/,
    );
    for (const f of ['extension.js', 'server-command.js', 'package.json'])
      expect(readFileSync(join(ext, f), 'utf8')).not.toMatch(/\bnpx\b/);
  });

  it('has a publisher, license, lockfile, .vscodeignore, README; contributes its commands and described settings', () => {
    expect(manifest.publisher).toBeTruthy();
    expect(manifest.license).toBe('Apache-2.0');
    // No public repository URL exists: no made-up `repository`; vsce is told so when packaging.
    expect(manifest.repository).toBeUndefined();
    expect(manifest.scripts?.['package']).toMatch(/vsce@[\d.]+ -- vsce package --allow-missing-repository --no-rewrite-relative-links$/);
    const client = manifest.dependencies['vscode-languageclient']!;
    expect(client).toMatch(/^\d+\.\d+\.\d+$/);
    const lock = JSON.parse(readFileSync(join(ext, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    expect(lock.packages['node_modules/vscode-languageclient']?.version).toBe(client);
    expect(readFileSync(join(ext, '.vscodeignore'), 'utf8')).toBeTruthy();
    expect(readFileSync(join(ext, 'README.md'), 'utf8')).toMatch(/!\[.*\]\(\.\.\/\.\.\/docs\/vscode-ptolog\.png\)/);
    expect(manifest.contributes.commands.map((c) => c.command).sort()).toEqual([
      'ptolog.canonicalize',
      'ptolog.explain',
      'ptolog.fixAll',
      'ptolog.restartServer',
    ]);
    const props = manifest.contributes.configuration.properties;
    expect(Object.keys(props).sort()).toEqual([
      'ptolog.args',
      'ptolog.defines',
      'ptolog.passes',
      'ptolog.path',
      'ptolog.rules',
      'ptolog.stage',
      'ptolog.trace.server',
    ]);
    for (const [k, p] of Object.entries(props))
      expect({ k, d: (p.description ?? p.markdownDescription ?? '').length > 20 }).toEqual({ k, d: true });
    // Every command the extension registers is contributed, and the other way round.
    const js = readFileSync(join(ext, 'extension.js'), 'utf8');
    expect([...js.matchAll(/registerCommand\('([^']+)'/g)].map((m) => m[1]).sort()).toEqual(
      manifest.contributes.commands.map((c) => c.command).sort(),
    );
  });

  it('the server as the extension starts it: diagnostics, settings from workspace/configuration, explain, fix all, no commands of its own', async () => {
    const ws = workspace();
    const kernel = readFileSync('examples/ring_allreduce.py', 'utf8');
    const file = join(ws, 'kernel.py');
    writeFileSync(file, kernel);
    const uri = pathToFileURL(file).href;
    const found = serverCommand({ configured: '', folders: [ws], envPath: process.env['PATH'] ?? '', platform: process.platform });
    // As extension.js: [command, 'lsp', '--stdio', ...ptolog.args] in the first workspace folder.
    const child = spawn(found.command!, ['lsp', '--stdio'], { cwd: ws, stdio: ['pipe', 'pipe', 'pipe'] });
    const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    // The settings as VS Code sends them: the contributed defaults, then a user's change.
    const defaults = Object.fromEntries(
      Object.entries(manifest.contributes.configuration.properties).map(([k, p]) => [k.replace(/^ptolog\./, ''), p.default]),
    );
    let settings: Record<string, unknown> = { ...defaults };
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
      p.items.map((i) => (i.section === 'ptolog' ? settings : null)),
    );
    const edits: WorkspaceEdit[] = [];
    conn.onRequest('workspace/applyEdit', (p: { edit: WorkspaceEdit }) => {
      edits.push(p.edit);
      return { applied: true };
    });
    const published: PublishDiagnosticsParams[] = [];
    const waiters: ((p: PublishDiagnosticsParams) => boolean)[] = [];
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      published.push(p);
      for (const w of [...waiters]) if (w(p)) waiters.splice(waiters.indexOf(w), 1);
    });
    const when = (pred: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams> =>
      new Promise((res) => {
        waiters.push((p) => {
          if (!pred(p)) return false;
          res(p);
          return true;
        });
      });
    conn.listen();
    const init = (await conn.sendRequest('initialize', {
      processId: null,
      rootUri: pathToFileURL(ws).href,
      initializationOptions: { clientCommands: true },
      capabilities: { workspace: { configuration: true }, textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } } },
    })) as { capabilities: { executeCommandProvider: { commands: string[] } } };
    // VS Code's client would register a command for each listed one, clashing with the contributed ones.
    expect(init.capabilities.executeCommandProvider.commands).toEqual([]);
    await conn.sendNotification('initialized', {});
    const first = when((p) => p.uri === uri);
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: kernel } });
    expect((await first).diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['missing-marker', 3],
      ['missing-marker', 3],
    ]);
    // ptolog.stage changed in the settings: applied without a restart.
    settings = { ...defaults, stage: 'as-written' };
    const second = when((p) => p.uri === uri && p.diagnostics.some((d) => d.code === 'contract-violation'));
    await conn.sendNotification('workspace/didChangeConfiguration', { settings: { ptolog: settings } });
    await second;
    const explained = (await conn.sendRequest('workspace/executeCommand', {
      command: 'ptolog.explain',
      arguments: [uri, kernel.split('\n').findIndex((l) => l.includes('remote_store')) + 1],
    })) as string;
    expect(explained).toContain('proof of insert_after(');
    expect(await conn.sendRequest('workspace/executeCommand', { command: 'ptolog.fixAll', arguments: [uri] })).toBe(true);
    let applied = '';
    await main(['apply', file], { stdout: (t) => (applied += t), stderr: () => undefined });
    expect(applyEdits(kernel, edits[0]!.changes![uri]! as TextEdit[])).toBe(applied);
    await conn.sendRequest('shutdown');
    const exited = new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
    await conn.sendNotification('exit');
    expect(await exited).toBe(0);
    conn.dispose();
  }, 120_000);
});
