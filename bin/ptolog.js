#!/usr/bin/env node
// The CLI as one bundle (dist/bundle/cli.js, built by `npm run build` from dist/cli/main.js):
// Node loads a few modules instead of a few hundred at every start.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

// `ptolog lsp`: the language server's analysis thread starts first, and loads while the CLI does.
let analysisThread;
const workerUrl = new URL('../dist/bundle/analysis-worker.js', import.meta.url);
if (process.argv[2] === 'lsp' && existsSync(workerUrl)) {
  analysisThread = new Worker(workerUrl);
  analysisThread.unref();
}
const { main, processIO } = await import('../dist/bundle/cli.js');

process.exitCode = await main(process.argv.slice(2), analysisThread ? { ...processIO, analysisThread } : processIO);
