// The analysis thread's warm-up (dist/bundle/analysis-worker.js: `npm run build` first): run to
// its end before any document, and not run at all once a document has been analysed (the rules
// are then loaded: it would only repeat work).
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnalysisReply, WireSettings, WorkerMessage } from '../../src/lsp/worker-protocol.js';
import { PASSES } from '../../src/passes/registry.js';
import { initialize, startServer, stop } from './client.js';

const SCRIPT = fileURLToPath(new URL('../../dist/bundle/analysis-worker.js', import.meta.url));
const settings: WireSettings = { passes: PASSES.map((p) => p.name), ruleDirs: [], defines: [] };
const base = process.cwd();
const KERNEL = `import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 64], pl.FP32]):
        t = pl.load(x, [0, 0], [1, 64])
        pl.store(t, [0, 0], x)
`;

const workers: Worker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.terminate();
});

/** A started analysis thread: what it replies, in order, and a way to wait for a reply. */
function thread(): { port: MessagePort; replies: AnalysisReply[]; until: (p: (r: AnalysisReply) => boolean) => Promise<void> } {
  const worker = new Worker(SCRIPT);
  workers.push(worker);
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ port: port2 }, [port2]);
  const replies: AnalysisReply[] = [];
  const waiters: { p: (r: AnalysisReply) => boolean; resolve: () => void }[] = [];
  port1.on('message', (r: AnalysisReply) => {
    replies.push(r);
    for (const w of [...waiters]) {
      if (!w.p(r)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  return { port: port1, replies, until: (p) => new Promise((resolve) => waiters.push({ p, resolve })) };
}

const warm: WorkerMessage = { kind: 'warm', path: 'warm.py', settings, rulesGeneration: 0, base };
const analyse = (id: number, uri: string): WorkerMessage => ({
  kind: 'analyse',
  id,
  uri,
  path: `${uri}.py`,
  text: KERNEL,
  settings,
  salt: '',
  rulesGeneration: 0,
  base,
});
const resultOf = (id: number) => (r: AnalysisReply) => r.kind !== 'warmed' && r.id === id;

describe('ptolog lsp', () => {
  it('starts its analysis thread with the process (bin/ptolog.js), before the CLI has loaded', async () => {
    const s = startServer();
    await initialize(s, base);
    expect(await stop(s)).toBe(0);
    expect(s.logs).toContain('ptolog: documents are analysed on their own thread');
    expect(s.logs).toContain('ptolog: the analysis thread was started with the process');
  }, 60_000);
});

describe('the analysis thread warm-up', () => {
  it('runs to its end when no document comes', async () => {
    const t = thread();
    t.port.postMessage(warm);
    await t.until((r) => r.kind === 'warmed');
    expect(t.replies.map((r) => r.kind)).toEqual(['warmed']);
  }, 60_000);

  it('is not run once a document has been analysed', async () => {
    const t = thread();
    t.port.postMessage(analyse(1, 'a'));
    t.port.postMessage(warm);
    await t.until(resultOf(1));
    // (Time for a warm-up to run between the two documents.)
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.port.postMessage(analyse(2, 'b'));
    await t.until(resultOf(2));
    expect(t.replies.map((r) => r.kind)).toEqual(['result', 'result']);
  }, 60_000);
});
