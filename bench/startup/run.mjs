#!/usr/bin/env node
// Start-up CPU where users meet ptolog: `ptolog --version` against `ptolog audit` of a small
// shipped kernel, each a fresh process, the CPU (user + system) of the child as bash's `time`
// reports it (to the millisecond: /usr/bin/time rounds to 10 ms); median of --runs (default 5).
// Prints the ratio the goal names (≤ 2×).
//   node bench/startup/run.mjs [--runs 5] [--file examples/ring_allreduce.py] [-- extra audit flags]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt('--runs', '5'));
const file = opt('--file', 'examples/ring_allreduce.py');
const dash = args.indexOf('--');
const extra = dash >= 0 ? args.slice(dash + 1) : [];
const bin = join(root, 'bin', 'ptolog.js');
if (!existsSync(join(root, 'dist'))) {
  console.error('bench/startup: run `npm run build` first');
  process.exit(2);
}
if (spawnSync('bash', ['-c', 'true']).status !== 0) {
  console.error('bench/startup: needs bash (its `time` reports CPU to the millisecond)');
  process.exit(2);
}

/** CPU seconds (user + system) of one run of `ptolog ...argv`, its stdout a pipe as when a tool reads it. */
function cpuOf(argv) {
  const script = 'TIMEFORMAT="%3U %3S"; time "$@" 2>/dev/null';
  const r = spawnSync('bash', ['-c', script, 'bench', process.execPath, bin, ...argv], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [u, s] = last.split(' ').map(Number);
  if (!Number.isFinite(u) || !Number.isFinite(s)) throw new Error(`cannot read the CPU time of ptolog ${argv.join(' ')}: ${r.stderr}`);
  return u + s;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const version = [];
const audit = [];
for (let i = 0; i < runs; i++) {
  version.push(cpuOf(['--version']));
  audit.push(cpuOf(['audit', file, ...extra]));
}
const v = median(version);
const a = median(audit);
console.log(`ptolog --version          CPU median ${v.toFixed(3)} s  (runs: ${version.map((x) => x.toFixed(3)).join(' ')})`);
console.log(`ptolog audit ${file}  CPU median ${a.toFixed(3)} s  (runs: ${audit.map((x) => x.toFixed(3)).join(' ')})`);
console.log(`audit / --version: ${(a / v).toFixed(2)}x (goal: at most 2x)`);
