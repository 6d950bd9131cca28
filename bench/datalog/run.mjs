// Benchmark of the Datalog engine against Soufflé (when `souffle` is on PATH).
// Usage: npm run build && node bench/datalog/run.mjs [--quick]
// Each workload runs in a fresh Node process (`node bench/datalog/worker.mjs`), timed end to end
// (load rules + read facts + evaluate + write CSV), peak RSS from the child itself; the median
// of 3 runs is reported (peak memory: the maximum).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { generate } from './gen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const dist = join(root, 'dist', 'datalog', 'index.js');
if (!existsSync(dist)) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(2);
}
const quick = process.argv.includes('--quick');
const repeats = quick ? 1 : 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = join(root, 'bench', 'out', 'datalog');
mkdirSync(out, { recursive: true });
const sizes = quick
  ? { chainN: 500, randEdges: 3000, treeDepth: 7, aggGroups: 100, aggPerGroup: 100 }
  : { chainN: 2000, randEdges: 10000, treeDepth: 10, aggGroups: 1000, aggPerGroup: 300 };
const dirs = generate(join(out, 'facts'), sizes);

const workloads = [
  { name: `tc chain ${sizes.chainN}`, rules: join(here, 'tc.dl'), facts: dirs.chain, ref: quick ? undefined : { seconds: 0.6, mb: 33 } },
  { name: `tc random ${sizes.randEdges} edges`, rules: join(here, 'tc.dl'), facts: dirs.random },
  { name: `same-generation tree depth ${sizes.treeDepth}`, rules: join(here, 'sg.dl'), facts: dirs.tree },
  { name: `group aggregate ${sizes.aggGroups}x${sizes.aggPerGroup}`, rules: join(here, 'agg.dl'), facts: dirs.agg },
];

const souffle = spawnSync('souffle', ['--version'], { encoding: 'utf8' });
const haveSouffle = souffle.status === 0;

function runSouffle(w) {
  const d = join(out, 'souffle', w.name.replace(/\W+/g, '_'));
  mkdirSync(d, { recursive: true });
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'souffle', '-j1', '-F', w.facts, '-D', d, w.rules], { encoding: 'utf8' });
  const seconds = (performance.now() - t) / 1000;
  const mb = Number((r.stderr.trim().split('\n').pop() ?? '0')) / 1024;
  return { seconds, mb };
}

const rows = [];
for (const w of workloads) {
  const d = join(out, 'ptolog', w.name.replace(/\W+/g, '_'));
  mkdirSync(d, { recursive: true });
  const samples = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [join(here, 'worker.mjs'), pathToFileURL(dist).href, w.rules, w.facts, d], { encoding: 'utf8' });
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
    loadS: pick((s) => s.m.load) / 1000,
    evalS: pick((s) => s.m.eval) / 1000,
    totalS: pick((s) => s.m.total) / 1000,
    wallS: wall,
    peakMB: Math.max(...samples.map((s) => s.m.maxRssKB)) / 1024,
  };
  if (haveSouffle) {
    const s = runSouffle(w);
    row.souffleS = s.seconds;
    row.souffleMB = s.mb;
    row.ratio = wall / s.seconds;
    row.basis = 'measured souffle -j1 (interpreter)';
  } else if (w.ref) {
    row.souffleS = w.ref.seconds;
    row.souffleMB = w.ref.mb;
    row.ratio = wall / w.ref.seconds;
    row.basis = 'REFERENCE figure (Soufflé 2.5 interpreter on the reference machine), not measured here';
  } else row.basis = 'souffle not on PATH: no comparison';
  rows.push(row);
}

console.log(`node ${process.version}, ${repeats} run(s) per workload, load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const f = (x, d = 2) => (x === undefined ? '-' : x.toFixed(d));
console.log(`souffle: ${haveSouffle ? souffle.stdout.trim().split('\n')[0] : 'not on PATH'}`);
console.log('| workload | output tuples | ptolog load rules + facts (s) | ptolog eval (s) | ptolog total in-process (s) | ptolog wall incl. node start (s) | ptolog peak RSS (MB) | Soufflé (s) | Soufflé (MB) | ratio (wall) | Soufflé basis |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.workload} | ${r.tuples} | ${f(r.loadS)} | ${f(r.evalS)} | ${f(r.totalS)} | ${f(r.wallS)} | ${f(r.peakMB, 0)} | ${f(r.souffleS)} | ${f(r.souffleMB, 0)} | ${f(r.ratio)} | ${r.basis} |`);
}
