// Benchmark of the Datalog engine against Soufflé (when `souffle` is on PATH).
// Usage: npm run build && node bench/datalog/run.mjs [--quick] [--kernel N] [--only TEXT]
// Each workload runs in a fresh Node process (`node bench/datalog/worker.mjs`), timed end to end
// (load rules + read facts + evaluate + write CSV), peak RSS from the child itself; the median
// of 3 runs is reported (peak memory: the maximum). Soufflé (`souffle -j1`, its interpreter) runs
// the same rule file on the same facts as many times, and its outputs are compared with
// ptolog's (each `.csv` as a set of lines): a difference fails the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate } from './gen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
// The engine's library API as built by `npm run build`: the single-module bundle of
// dist/datalog/index.js (what a short run's start-up costs least with); PTOLOG_BENCH_DIST=<dir>
// runs another build's dist/ (its bundle, or dist/datalog/index.js where it has none) side by side.
const distDir = process.env.PTOLOG_BENCH_DIST ?? join(root, 'dist');
const dist = [join(distDir, 'bundle', 'datalog.js'), join(distDir, 'datalog', 'index.js')].find((f) => existsSync(f));
if (!dist) {
  console.error(`${distDir} has no build: run \`npm run build\` first`);
  process.exit(2);
}
const quick = process.argv.includes('--quick');
const repeats = quick ? 1 : 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = join(root, 'bench', 'out', 'datalog');
mkdirSync(out, { recursive: true });
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = arg('--only');
const sizes = quick
  ? { chainN: 500, randEdges: 3000, treeDepth: 7, aggGroups: 100, aggPerGroup: 100, kernel: 2000 }
  : { chainN: 2000, randEdges: 10000, treeDepth: 10, aggGroups: 1000, aggPerGroup: 300, kernel: 100000 };
if (arg('--kernel')) sizes.kernel = Number(arg('--kernel'));
const dirs = generate(join(out, 'facts'), sizes);
const shipped = join(root, 'rules');

/** The facts (`ptolog facts`, the CLI's dump) of a generated InCore comm kernel of `n` statements. */
async function kernelFacts(n) {
  const { commKernelText } = await import(pathToFileURL(join(root, 'dist', 'gen', 'large.js')).href);
  const py = join(out, `kernel${n}.py`);
  writeFileSync(py, commKernelText(n));
  const dir = join(out, 'facts', `kernel${n}`);
  rmSync(dir, { recursive: true, force: true });
  const r = spawnSync(process.execPath, [join(root, 'bin', 'ptolog.js'), 'facts', py, '--out', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
  return dir;
}

const workloads = [
  { name: `tc chain ${sizes.chainN}`, rules: join(here, 'tc.dl'), facts: dirs.chain },
  { name: `tc random ${sizes.randEdges} edges`, rules: join(here, 'tc.dl'), facts: dirs.random },
  { name: `same-generation tree depth ${sizes.treeDepth}`, rules: join(here, 'sg.dl'), facts: dirs.tree },
  { name: `group aggregate ${sizes.aggGroups}x${sizes.aggPerGroup}`, rules: join(here, 'agg.dl'), facts: dirs.agg },
  // The shipped InsertCommFence audit rules (the contract, its pass rules, the op catalog) on the
  // facts of a generated comm kernel: what `ptolog audit --pass insert-comm-fence` evaluates.
  {
    name: `comm_contract.dl on a ${sizes.kernel}-statement comm kernel`,
    rules: join(shipped, 'insert_comm_fence', 'comm_contract.dl'),
    kernel: sizes.kernel,
    shipped,
  },
].filter((w) => only === undefined || w.name.includes(only));
for (const w of workloads) if (w.kernel) w.facts = await kernelFacts(w.kernel);

const souffle = spawnSync('souffle', ['--version'], { encoding: 'utf8' });
const haveSouffle = souffle.status === 0;

function runSouffle(w, d) {
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'souffle', '-j1', '-F', w.facts, '-D', d, w.rules], { encoding: 'utf8' });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) {
    console.error(`souffle failed on ${w.name}:\n${r.stderr}`);
    process.exit(1);
  }
  const mb = Number(r.stderr.trim().split('\n').pop() ?? '0') / 1024;
  return { seconds, mb };
}

/** Each `.csv` of `dir` as its sorted lines (a missing file: no lines). */
function csvs(dir) {
  const m = new Map();
  for (const n of readdirSync(dir))
    if (n.endsWith('.csv'))
      m.set(
        n,
        readFileSync(join(dir, n), 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .sort(),
      );
  return m;
}

/** The output files whose sets of lines differ between two output directories. */
function differing(a, b) {
  const x = csvs(a);
  const y = csvs(b);
  return [...new Set([...x.keys(), ...y.keys()])].filter((n) => (x.get(n) ?? []).join('\n') !== (y.get(n) ?? []).join('\n'));
}

const rows = [];
let failed = false;
for (const w of workloads) {
  const d = join(out, 'ptolog', w.name.replace(/\W+/g, '_'));
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const samples = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    const r = spawnSync(
      process.execPath,
      [join(here, 'worker.mjs'), pathToFileURL(dist).href, w.rules, w.facts, d, ...(w.shipped ? [w.shipped] : [])],
      { encoding: 'utf8' },
    );
    const wall = (performance.now() - t) / 1000;
    if (r.status !== 0) {
      console.error(r.stderr);
      process.exit(1);
    }
    samples.push({ wall, m: JSON.parse(r.stdout.trim().split('\n').pop()) });
  }
  const pick = (f) => median(samples.map(f));
  const wall = pick((s) => s.wall);
  const m = samples[0].m;
  const tuples = Object.values(m.sizes).reduce((a, b) => a + b, 0);
  const row = {
    workload: w.name,
    tuples,
    rulesS: pick((s) => s.m.rules) / 1000,
    loadS: pick((s) => s.m.load) / 1000,
    evalS: pick((s) => s.m.eval) / 1000,
    totalS: pick((s) => s.m.total) / 1000,
    wallS: wall,
    peakMB: Math.max(...samples.map((s) => s.m.maxRssKB)) / 1024,
  };
  if (haveSouffle) {
    const sd = join(out, 'souffle', w.name.replace(/\W+/g, '_'));
    const runs = [];
    for (let i = 0; i < repeats; i++) runs.push(runSouffle(w, sd));
    row.souffleS = median(runs.map((s) => s.seconds));
    row.souffleMB = Math.max(...runs.map((s) => s.mb));
    row.ratio = wall / row.souffleS;
    const diff = differing(sd, d);
    row.same = diff.length === 0 ? `identical (${csvs(sd).size} outputs)` : `DIFFERENT: ${diff.join(', ')}`;
    if (diff.length > 0) failed = true;
    row.basis = 'measured souffle -j1 (interpreter)';
  } else row.basis = 'souffle not on PATH: no comparison';
  rows.push(row);
}

console.log(
  `node ${process.version}, ${repeats} run(s) per workload, load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
const f = (x, d = 2) => (x === undefined ? '-' : x.toFixed(d));
console.log(`souffle: ${haveSouffle ? souffle.stdout.trim().split('\n')[0] : 'not on PATH'}`);
console.log(
  '| workload | output tuples | ptolog rules (s) | ptolog load rules + facts (s) | ptolog eval (s) | ptolog total in-process (s) | ptolog wall incl. node start (s) | ptolog peak RSS (MB) | Soufflé (s) | Soufflé (MB) | ratio (wall) | outputs vs Soufflé | Soufflé basis |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.workload} | ${r.tuples} | ${f(r.rulesS)} | ${f(r.loadS)} | ${f(r.evalS)} | ${f(r.totalS)} | ${f(r.wallS)} | ${f(r.peakMB, 0)} | ${f(r.souffleS)} | ${f(r.souffleMB, 0)} | ${f(r.ratio)} | ${r.same ?? '-'} | ${r.basis} |`,
  );
}
if (failed) {
  console.error('ptolog and Soufflé gave different outputs (see the table)');
  process.exit(1);
}
