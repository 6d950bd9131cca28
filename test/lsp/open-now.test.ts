// A document just opened is analysed at once: its first diagnostics do not wait for the
// debounce that later changes wait for (the server runs in this process, analysing on this thread).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver';
import { createConnection } from 'vscode-languageserver/node';
import { startServer } from '../../src/lsp/server.js';
import { PASSES } from '../../src/passes/registry.js';

const RING = `import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Ring:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        data: pl.InOut[pl.Tensor[[4, 64], pl.FP32]],
        win: pld.DistributedTensor[[4, 64], pl.FP32],
        signal: pld.DistributedTensor[[1, 4], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        for i in pl.range(3):
            chunk = pl.load(data, [i, 0], [1, 64])
            pld.tile.remote_store(chunk, target=win, peer=peer, offsets=[i, 0])
            pld.system.notify(target=signal, peer=peer, offsets=[0, i], value=1, op=pld.NotifyOp.AtomicAdd)
`;

describe('opening a document', () => {
  it('publishes its diagnostics without waiting for the debounce (an hour here)', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(fromServer));
    startServer(
      server,
      { settingsFor: () => ({ passes: PASSES, ruleDirs: [], defines: new Map() }), debounceMs: 3_600_000, thread: false },
      process.cwd(),
    );
    server.listen();
    const client = createMessageConnection(new StreamMessageReader(fromServer), new StreamMessageWriter(toServer));
    const published: PublishDiagnosticsParams[] = [];
    const first = new Promise<void>((resolve) =>
      client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        published.push(p);
        resolve();
      }),
    );
    client.onNotification('window/logMessage', () => {});
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
    await client.sendNotification('initialized', {});
    const uri = 'file:///tmp/ptolog-open-now/ring.py';
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: RING } });
    await first;
    expect(published).toHaveLength(1);
    expect(published[0]!.version).toBe(1);
    expect(published[0]!.diagnostics.map((d) => d.code)).toContain('missing-marker');
    // A change is still debounced: nothing more is published for it (the hour has not passed).
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: `${RING}\n` }],
    });
    await client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    expect(published).toHaveLength(1);
    client.dispose();
    server.dispose();
  }, 60_000);
});
