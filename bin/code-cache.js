// Loads the CLI's CommonJS bundle (dist/bundle/cli.cjs and the chunks it requires) as V8 scripts
// with the code cache the build wrote beside each file (`<file>.cache`, scripts/code-cache.mjs):
// the bytecode of the bundle's top level and of every function a warm-up audit called, so that a
// run neither parses the bundle nor compiles those functions again (Node 20 caches no ES module).
// A cache is used only when it was made from this very text (a SHA-1 of the source in its header)
// and is whole (a SHA-1 of the data); V8 itself rejects one of another V8 or other flags. Any
// cache missing, foreign or rejected: the file is compiled as without one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';
// The cache file's format (src/runner/code-cache-file.ts, built with the rest: a run needs dist/).
import { cachedDataOf, writeCachedData } from '../dist/runner/code-cache-file.js';

/**
 * The V8 flags the CLI runs under. A larger interrupt budget than V8's (67,584 bytes of bytecode)
 * lets a function run longer before the optimising compiler takes it up: ptolog runs hundreds of
 * generated join functions and parser paths briefly, and at V8's default most of what it optimised
 * was thrown away again (docs/benchmarks.md, "Compiler tiering": a small audit, a folder of
 * kernels and PyPTO's corpus all take less CPU, and less time).
 */
export const V8_FLAGS = '--interrupt-budget=540000';

/**
 * Sets V8_FLAGS for this process. Call it before loadBundle, both where the cache is written and
 * where it is read: V8 uses a code cache only under the flags it was made with.
 */
export function tuneCompiler() {
  setFlagsFromString(V8_FLAGS);
}

/**
 * Loads the CommonJS bundle whose entry is `entry` (a path): its files are run as scripts with
 * their code caches; a `./` require is another file of the bundle, any other Node's. Returns the
 * entry's exports, `cached` (the files V8 ran from their cache) and `writeCaches`, which writes each
 * loaded file's cache as it stands (the build's scripts/code-cache.mjs calls it after a warm-up run).
 */
export function loadBundle(entry) {
  const dir = dirname(entry);
  const nodeRequire = createRequire(entry);
  const modules = new Map();
  const scripts = [];
  const cached = [];
  const load = (file) => {
    const known = modules.get(file);
    if (known) return known.exports;
    const bytes = readFileSync(file);
    const source = bytes.toString('utf8');
    const cachedData = cachedDataOf(file, bytes);
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    });
    scripts.push({ file, script });
    if (cachedData && !script.cachedDataRejected) cached.push(file);
    const module = { exports: {} };
    modules.set(file, module);
    const require = (id) => (id.startsWith('./') ? load(join(dir, id)) : nodeRequire(id));
    script.runInThisContext()(module.exports, require, module, file, dir);
    return module.exports;
  };
  const exports = load(entry);
  const writeCaches = () => {
    for (const { file, script } of scripts) writeCache(file, script);
  };
  return { exports, writeCaches, cached };
}

/** Writes `<file>.cache`, the code cache of `script` (compiled from `file`) as it stands, whole or not at all. */
export function writeCache(file, script) {
  writeCachedData(file, readFileSync(file), script.createCachedData());
}

/**
 * Writes the code cache of `file` run as a plain script (no module wrapper; what
 * src/runner/prebuilt-plans.ts reads): the bytecode of its top level and of the functions V8
 * compiled with it (those in parentheses).
 */
export function writeScriptCache(file) {
  writeCache(file, new vm.Script(readFileSync(file, 'utf8'), { filename: file }));
}
