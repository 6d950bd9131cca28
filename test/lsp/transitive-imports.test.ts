/** The language server follows imported helpers transitively: saving a helper two imports deep re-analyses the kernel importing it. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { initialize, open, startServer, stop } from './client.js';

describe('ptolog lsp: helpers imported by helpers', () => {
  it('reports the markers of every level; saving the deepest helper re-analyses the kernel two imports up', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ptolog-lsp-deep-imports-'));
    cpSync('specs/modules/lib', join(root, 'lib'), { recursive: true });
    const kPath = join(root, 'chain.py');
    const kText = readFileSync('specs/modules/chain.py', 'utf8');
    writeFileSync(kPath, kText);
    const s = startServer([]);
    await initialize(s, root);
    const kUri = pathToFileURL(kPath).href;
    // (Findings located in a helper file are shown at the top of the kernel, their message led by the file's place.)
    const places = (ds: Diagnostic[]): string[] =>
      ds.map((d) => /(lib\/\w+\/\w+\.py:\d+)/.exec(String(d.message))?.[1] ?? `${d.range.start.line + 1}`).sort();
    const p1 = await open(s, kUri, kText);
    expect(places(p1.diagnostics)).toEqual(['lib/comm/relay.py:15', 'lib/sync/wait.py:11']);
    // The deepest helper no longer waits (it notifies): no cacheinvalid after it.
    const waitPath = join(root, 'lib', 'sync', 'wait.py');
    const wait = readFileSync(waitPath, 'utf8');
    const waitUri = pathToFileURL(waitPath).href;
    await open(s, waitUri, wait);
    const edited = wait.replace(
      'pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)',
      'pld.system.notify(target=sig, peer=0, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)',
    );
    writeFileSync(waitPath, edited);
    const again = s.next(kUri, (p) => places(p.diagnostics).join() !== places(p1.diagnostics).join());
    await s.conn.sendNotification('textDocument/didSave', { textDocument: { uri: waitUri } });
    const p2 = await again;
    expect(places(p2.diagnostics)).toEqual(['lib/comm/relay.py:15']);
    expect(await stop(s)).toBe(0);
    expect(s.logs.filter((l) => l.includes('internal error'))).toEqual([]);
  }, 120_000);
});
