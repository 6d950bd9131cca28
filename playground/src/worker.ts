/// <reference lib="webworker" />
// The analysis worker: runs the library off the page's thread so typing stays smooth.
import { PlaygroundAnalyzer } from './analysis.js';
import type { Request, Response } from './protocol.js';

const analyzer = new PlaygroundAnalyzer();
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (ev: MessageEvent<Request>) => {
  const r = ev.data;
  let out: Response;
  try {
    out =
      r.kind === 'analyze' ? analyzer.analyze(r.id, r.kernel, r.rules, r.asWritten === true)
      : r.kind === 'fix' ? analyzer.fix(r.id, r.kernel, r.rules, r.pass, r.start)
      : analyzer.explain(r.id, r.line);
  } catch (e) {
    out = { kind: 'failed', id: r.id, message: e instanceof Error ? e.message : String(e) };
  }
  scope.postMessage(out);
};
