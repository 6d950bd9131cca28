// Bundles the compiled entry points (dist/, from tsc) into dist/bundle/ with rolldown: the CLI
// (cli.js, what bin/ptolog.js runs), its `--jobs` worker thread (worker.js), the language
// server's analysis thread (analysis-worker.js) and the rule engine's
// library API (datalog.js, what bench/datalog runs). Node then compiles one module instead of
// resolving, reading and linking a hundred or more (ohm-js alone is some fifty ESM files), which
// is most of the start-up of a short run. Each entry is bundled on its own (its dependencies
// inlined; a dynamic `import()`, the LSP server's, stays a lazily loaded chunk beside it), so the
// engine's bundle holds the engine alone. dist/bundle/ is two levels below the package root like
// dist/<dir>/, so paths relative to a module (`../../package.json`, `../../rules`) still hold;
// the grammar files read at run time are copied beside the bundles.
// Run by `npm run build` after tsc and copy-assets.
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'bundle');

/** Entry name (the bundle's file name) → the compiled module it starts from. */
const entries = {
  cli: join(dist, 'cli', 'main.js'),
  worker: join(dist, 'cli', 'worker.js'),
  // The language server's analysis thread (found beside the CLI's chunks by workerScript()).
  'analysis-worker': join(dist, 'lsp', 'analysis-worker.js'),
  datalog: join(dist, 'datalog', 'index.js'),
};

rmSync(out, { recursive: true, force: true });
for (const [name, input] of Object.entries(entries)) {
  if (!existsSync(input)) throw new Error(`${input} is missing: run tsc first (npm run build)`);
  await build({
    input: { [name]: input },
    platform: 'node',
    logLevel: 'warn',
    output: { dir: out, format: 'esm', chunkFileNames: `${name}-chunk-[hash].js` },
  });
}
// The CLI once more as CommonJS (cli.cjs and its cli-cjs-chunk-*.cjs), what bin/ptolog.js runs: a
// script can be compiled with V8's code cache (bin/code-cache.js, written by scripts/code-cache.mjs
// after a warm-up audit), which an ES module cannot on Node 20, so that a run neither parses the
// bundle nor compiles the functions an audit calls again. cli.js stays for importers of the module.
await build({
  input: { cli: entries.cli },
  platform: 'node',
  logLevel: 'warn',
  output: { dir: out, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'cli-cjs-chunk-[hash].cjs' },
});
// The grammars read at run time relative to their module (any .ohm file next to a compiled module).
for (const dir of readdirSync(dist, { withFileTypes: true })) {
  if (!dir.isDirectory() || dir.name === 'bundle') continue;
  for (const f of readdirSync(join(dist, dir.name))) if (f.endsWith('.ohm')) cpSync(join(dist, dir.name, f), join(out, f));
}
