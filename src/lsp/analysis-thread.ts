/** The language server's analysis thread, seen from the server: requests out, audits back, stale ones dropped. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { fromWire } from '../report/wire.js';
import type { PassFinding } from './analysis.js';
import type { AnalysisReply, WorkerMessage } from './worker-protocol.js';

/** The compiled analysis thread (dist/bundle/analysis-worker.js beside the CLI's bundle, else dist/lsp/analysis-worker.js), if there is one. */
export function workerScript(): string | undefined {
  for (const rel of ['./analysis-worker.js', '../lsp/analysis-worker.js']) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** A document's audit as the analysis thread (or this thread) returns it. */
export type Audited = { findings: PassFinding[]; analysed: number; total: number };

/**
 * The analysis thread: `analyse` resolves with the audit, or with undefined when a newer request
 * for the document made it stale (the thread dropped it) or the thread failed (`failed` is then
 * called once, and the caller analyses in its own thread from then on). `script`: the thread's
 * compiled script, or a thread already started on it.
 */
export function analysisThread(
  script: string | Worker,
  failed: (e: unknown) => void,
): {
  analyse: (m: Extract<WorkerMessage, { kind: 'analyse' }>) => Promise<Audited | undefined>;
  close: (uri: string) => void;
  warm: (m: Extract<WorkerMessage, { kind: 'warm' }>) => void;
  stop: () => void;
} {
  const worker = typeof script === 'string' ? new Worker(script) : script;
  worker.unref();
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ port: port2 }, [port2]);
  const port: MessagePort = port1;
  port.unref();
  const waiting = new Map<number, { uri: string; resolve: (a: Audited | undefined) => void }>();
  let dead = false;
  port.on('message', (r: AnalysisReply) => {
    if (r.kind === 'warmed') return;
    const w = waiting.get(r.id);
    if (!w) return;
    waiting.delete(r.id);
    if (r.kind === 'failed') {
      failed(new Error(r.message));
      w.resolve(undefined);
      return;
    }
    const ds = fromWire(r.findings);
    w.resolve({ findings: ds.map((d, i) => ({ pass: r.passes[i] ?? '', diagnostic: d })), analysed: r.analysed, total: r.total });
  });
  worker.on('error', (e) => {
    dead = true;
    failed(e);
    for (const w of waiting.values()) w.resolve(undefined);
    waiting.clear();
  });
  return {
    analyse: (m) => {
      if (dead) return Promise.resolve(undefined);
      // An older request for the document is stale: the thread drops it, and so does this side.
      for (const [id, w] of waiting) {
        if (w.uri === m.uri) {
          waiting.delete(id);
          w.resolve(undefined);
        }
      }
      return new Promise((resolve) => {
        waiting.set(m.id, { uri: m.uri, resolve });
        try {
          port.postMessage(m);
        } catch (e) {
          // (Something of the request cannot be sent: analysed here instead.)
          waiting.delete(m.id);
          dead = true;
          failed(e);
          resolve(undefined);
        }
      });
    },
    close: (uri) => {
      if (!dead) port.postMessage({ kind: 'close', uri } satisfies WorkerMessage);
    },
    warm: (m) => {
      if (!dead) port.postMessage(m);
    },
    stop: () => {
      dead = true;
      port.close();
      void worker.terminate();
    },
  };
}
