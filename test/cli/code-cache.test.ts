// bin/code-cache.js: the CLI's CommonJS bundle run with the code cache the build wrote. A cache is
// used only for the very text it was made from and when whole; otherwise the file is compiled
// as without one, with the same result. The built CLI runs from its cache.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: bin/ is plain JavaScript (no declarations)
import { loadBundle } from '../../bin/code-cache.js';
import { runBin } from './helpers.js';

interface Loaded {
  exports: { answer: () => string };
  cached: string[];
  writeCaches: () => void;
}
const load = loadBundle as (entry: string) => Loaded;

/** A two-file CommonJS bundle: `main.cjs` requires `./part.cjs` and a Node built-in. */
function bundle(part = 'exports.word = () => "cached";'): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-code-cache-'));
  writeFileSync(
    join(dir, 'main.cjs'),
    'const part = require("./part.cjs");\nconst { join } = require("node:path");\nexports.answer = () => join(part.word(), String(__filename.endsWith("main.cjs")));\n',
  );
  writeFileSync(join(dir, 'part.cjs'), `${part}\n`);
  return join(dir, 'main.cjs');
}

describe('the code cache of a CommonJS bundle', () => {
  it('is written for each file loaded, and used by the next load', () => {
    const entry = bundle();
    const first = load(entry);
    expect(first.exports.answer()).toBe(join('cached', 'true'));
    expect(first.cached).toEqual([]);
    first.writeCaches();
    const again = load(entry);
    expect(again.exports.answer()).toBe(join('cached', 'true'));
    expect(again.cached.sort()).toEqual([entry, join(entry, '..', 'part.cjs')].sort());
  });

  it('is not used for a file whose text changed, nor when torn or foreign: the file runs as written', () => {
    const entry = bundle();
    load(entry).writeCaches();
    const part = join(entry, '..', 'part.cjs');
    // The same length, other text: V8 alone would not tell.
    writeFileSync(part, `${'exports.word = () => "edited";'}\n`);
    let l = load(entry);
    expect(l.exports.answer()).toBe(join('edited', 'true'));
    expect(l.cached).toEqual([entry]);
    l.writeCaches();
    const cache = readFileSync(`${part}.cache`);
    writeFileSync(`${part}.cache`, cache.subarray(0, cache.length - 7));
    l = load(entry);
    expect(l.cached).toEqual([entry]);
    expect(l.exports.answer()).toBe(join('edited', 'true'));
    const flipped = Buffer.from(cache);
    flipped[flipped.length - 3]! ^= 0xff;
    writeFileSync(`${part}.cache`, flipped);
    expect(load(entry).cached).toEqual([entry]);
    writeFileSync(`${part}.cache`, 'not a cache');
    expect(load(entry).cached).toEqual([entry]);
  });
});

describe('the built CLI', () => {
  it('runs its CommonJS bundle from the code cache and prints what the ES module bundle prints', () => {
    const node = (code: string): { status: number | null; stdout: string } =>
      spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    const cachedFiles = (tune: boolean): number =>
      Number(
        node(
          `const c = await import('./bin/code-cache.js'); ${tune ? 'c.tuneCompiler(); ' : ''}console.log(c.loadBundle(process.cwd() + '/dist/bundle/cli.cjs').cached.length);`,
        ).stdout.trim(),
      );
    // The build wrote the cache under the CLI's V8 flags (bin/code-cache.js V8_FLAGS): V8 uses it
    // under those flags only.
    expect(cachedFiles(true)).toBeGreaterThanOrEqual(2);
    expect(cachedFiles(false)).toBe(0);
    const viaBin = runBin(['audit', 'examples/ring_allreduce.py']);
    const esm = node(
      "const m = await import('./dist/bundle/cli.js'); process.exitCode = await m.main(['audit', 'examples/ring_allreduce.py'], m.processIO);",
    );
    expect(viaBin.code).toBe(esm.status);
    expect(viaBin.out).toBe(esm.stdout);
    expect(viaBin.out).toContain('missing-marker');
  });

  it('takes every join plan of a shipped example audit from the prebuilt plans of the build (no `new Function`)', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { main } = await import('./dist/cli/main.js');
const { RuleSession } = await import('./dist/passes/rule-session.js');
const { cacheSpecOf, ruleCacheOf } = await import('./dist/runner/rule-cache.js');
const { withPrebuiltPlans } = await import('./dist/runner/prebuilt-plans.js');
const { compiledPlanCodes, PREBUILT_PLANS } = await import('./dist/datalog/index.js');
const { version, prebuilt } = cacheSpecOf({}, false);
const spec = { version, prebuilt };
const session = withPrebuiltPlans(new RuleSession(process.cwd(), ruleCacheOf(spec)), spec);
await main(['audit', 'examples/ring_allreduce.py'], { stdout() {}, stderr() {}, env: {}, ruleSession: session });
console.log(JSON.stringify({ compiled: compiledPlanCodes(session.loads.programs).length, prebuilt: session.loads.programs.get(PREBUILT_PLANS).used }));`,
      ],
      { encoding: 'utf8' },
    );
    const { compiled, prebuilt } = JSON.parse(r.stdout) as { compiled: number; prebuilt: number };
    expect(compiled).toBeGreaterThan(50);
    expect(prebuilt).toBe(compiled);
  });
});
