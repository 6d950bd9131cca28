/// <reference lib="webworker" />
// The analysis worker: runs the library off the page's thread so typing stays smooth. An
// analysis goes step by step, reporting its progress; between steps the worker reads its
// messages, and an analysis a newer one has replaced stops there.
import { PlaygroundAnalyzer } from './analysis.js';
import type { Request, Response } from './protocol.js';

const analyzer = new PlaygroundAnalyzer();
const scope = self as unknown as DedicatedWorkerGlobalScope;
/** The id of the newest analysis asked for: an older one still running stops at its next step. */
let newest = 0;
/** Analyses stopped since the last result was posted. */
let stopped = 0;

// A turn of the event loop (pending messages are handled), without setTimeout's clamping.
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
const nextTurn = (): Promise<void> =>
  new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

const failed = (id: number, e: unknown): Response => ({ kind: 'failed', id, message: e instanceof Error ? e.message : String(e) });

async function run(r: Extract<Request, { kind: 'analyze' }>): Promise<void> {
  const steps = analyzer.analyzeSteps(r.id, r.kernel, r.rules, r.asWritten === true);
  try {
    for (;;) {
      const next = steps.next();
      if (next.done) {
        scope.postMessage(next.value.kind === 'analyzed' ? { ...next.value, stopped } : next.value);
        stopped = 0;
        return;
      }
      scope.postMessage({ kind: 'progress', id: r.id, ...next.value } satisfies Response);
      await nextTurn();
      if (newest !== r.id) {
        // (Left unfinished: nothing it holds is shared until it returns.)
        stopped++;
        return;
      }
    }
  } catch (e) {
    scope.postMessage(failed(r.id, e));
  }
}

scope.onmessage = (ev: MessageEvent<Request>) => {
  const r = ev.data;
  if (r.kind === 'analyze') {
    newest = r.id;
    void run(r);
    return;
  }
  let out: Response;
  try {
    out = r.kind === 'fix' ? analyzer.fix(r.id, r.kernel, r.rules, r.pass, r.start) : analyzer.explain(r.id, r.line);
  } catch (e) {
    out = failed(r.id, e);
  }
  scope.postMessage(out);
};
