// Writes the code cache of the CLI's CommonJS bundle (dist/bundle/cli.cjs and its chunks, read by
// bin/code-cache.js): the bundle is loaded and audits a shipped example, as a user's first run
// would, so that the cache holds the bytecode of the functions an audit calls, not only of the
// top level. Run by `npm run build` after compile-rules.mjs (the audit reads the compiled rules).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle, tuneCompiler, writeScriptCache } from '../bin/code-cache.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
// (The flags bin/ptolog.js runs under: V8 uses a code cache only under the flags it was made with.)
tuneCompiler();
const { exports, writeCaches } = loadBundle(join(root, 'dist', 'bundle', 'cli.cjs'));
const quiet = { ...exports.processIO, stdout: () => {}, stderr: () => {} };
// (Whatever it finds: the exit code says what the example reports, not whether the cache is good.)
await exports.main(['audit', join(root, 'examples', 'ring_allreduce.py')], quiet);
writeCaches();
// The prebuilt join plans (scripts/prebuilt-plans.mjs), read as a script by src/runner/prebuilt-plans.ts:
// its functions are parenthesised, so V8 compiles them all with the script and the cache holds them.
const plans = join(root, 'dist', 'compiled-rules', 'plans.js');
if (existsSync(plans)) writeScriptCache(plans);
