#!/usr/bin/env node
// The CLI as one bundle (dist/bundle/cli.cjs, built by `npm run build` from dist/cli/main.js):
// Node loads a few modules instead of a few hundred at every start, with the code cache the build
// made for them (bin/code-cache.js); dist/bundle/cli.js, the same as an ES module, when that is missing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadBundle, tuneCompiler } from './code-cache.js';

// (Before any thread or script starts: the code cache was written under the same flags.)
tuneCompiler();

// `ptolog lsp`: the language server's analysis thread starts first, and loads while the CLI does.
let analysisThread;
const workerUrl = new URL('../dist/bundle/analysis-worker.js', import.meta.url);
if (process.argv[2] === 'lsp' && existsSync(workerUrl)) {
  analysisThread = new Worker(workerUrl);
  analysisThread.unref();
}
const script = fileURLToPath(new URL('../dist/bundle/cli.cjs', import.meta.url));
const { main, processIO } = existsSync(script) ? loadBundle(script).exports : await import('../dist/bundle/cli.js');

process.exitCode = await main(process.argv.slice(2), analysisThread ? { ...processIO, analysisThread } : processIO);

// The command is done. When nothing is left to do (no output still to be written, no handle or
// request but the standard streams' own), end the process now: left to itself, Node would finish
// the heap's incremental marking and tear the heap down first, 15-20 ms of CPU on a small audit
// (docs/benchmarks.md, "Ending the process"). Otherwise (output waiting on a full pipe, the
// language server's streams), Node ends it when that is done.
if (nothingPending()) process.exit();

/** True when the only things keeping the process alive are the standard streams, with nothing waiting to be written. */
function nothingPending() {
  if (process.stdout.writableLength > 0 || process.stderr.writableLength > 0) return false;
  return process.getActiveResourcesInfo().every((r) => r === 'PipeWrap' || r === 'TTYWrap' || r === 'CloseReq');
}
