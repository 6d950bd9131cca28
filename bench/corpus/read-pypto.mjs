#!/usr/bin/env node
// Acceptance measurement: how much of a PyPTO checkout ptolog reads.
//
//   npm run build && node bench/corpus/read-pypto.mjs /path/to/pypto [--list] [--top N]
//
// Walks every .py file under <checkout>/{tests,examples,python} (what exists of them) and
// reads each as `ptolog audit` does (programs and functions each on their own). Reports:
// - the % of `@pl.program` programs read without error;
// - the % of files with module-level kernels (`@pl.jit...`, standalone `@pl.function`) whose
//   kernels are all read without error;
// - files that are silent (nothing read and nothing said: must be 0);
// - the most frequent error messages (the constructs to fix next), `--list` every failing file.
// Exit 1 when a file is silent or a rate is below 99.5%.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseModuleIsolated } from '../../dist/frontend/index.js';

const args = process.argv.slice(2);
const root = args.find((a) => !a.startsWith('--'));
if (!root) {
  console.error('usage: node bench/corpus/read-pypto.mjs PYPTO_CHECKOUT [--list] [--top N]');
  process.exit(2);
}
const list = args.includes('--list');
const topIdx = args.indexOf('--top');
const top = topIdx >= 0 ? Number(args[topIdx + 1]) : 15;

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === '.git' || e.name === 'node_modules' || e.name === '__pycache__') continue;
      yield* walk(p);
    } else if (e.isFile() && e.name.endsWith('.py')) yield p;
  }
}

const totals = {
  files: 0,
  programs: 0,
  programsBad: 0,
  jitFiles: 0,
  jitFilesBad: 0,
  jitKernels: 0,
  jitKernelsBad: 0,
  silent: 0,
  crashed: 0,
  ms: 0,
};
const messages = new Map();
const failing = [];
const silent = [];
for (const sub of ['tests', 'examples', 'python']) {
  const dir = join(root, sub);
  try {
    if (!statSync(dir).isDirectory()) continue;
  } catch {
    continue;
  }
  for (const file of walk(dir)) {
    const rel = relative(root, file);
    const text = readFileSync(file, 'utf8');
    totals.files++;
    const t0 = performance.now();
    let m;
    try {
      m = parseModuleIsolated(text, rel);
    } catch (e) {
      totals.crashed++;
      failing.push(`${rel}: CRASH ${e instanceof Error ? e.message : String(e)}`);
      continue;
    } finally {
      totals.ms += performance.now() - t0;
    }
    const s = m.stats ?? { programs: 0, programsWithErrors: 0, jitKernels: 0, jitKernelsWithErrors: 0 };
    totals.programs += s.programs;
    totals.programsBad += s.programsWithErrors;
    totals.jitKernels += s.jitKernels;
    totals.jitKernelsBad += Math.min(s.jitKernels, s.jitKernelsWithErrors);
    if (s.jitKernels > 0) {
      totals.jitFiles++;
      if (s.jitKernelsWithErrors > 0) totals.jitFilesBad++;
    }
    const problems = m.problems ?? [];
    if (m.programs.length === 0 && problems.length === 0) {
      totals.silent++;
      silent.push(rel);
    }
    const errors = problems.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      for (const d of errors) {
        const p = d.location ? d.location.source.position(d.location.start) : { line: 0, col: 0 };
        failing.push(`${rel}:${p.line}:${p.col}: ${d.code}: ${d.message}`);
        const key = `${d.code}: ${d.message.replace(/'[^']*'/g, "'…'")}`;
        messages.set(key, (messages.get(key) ?? 0) + 1);
      }
    }
  }
}

const pct = (ok, all) => (all === 0 ? 100 : (100 * ok) / all);
const progRate = pct(totals.programs - totals.programsBad, totals.programs);
const jitRate = pct(totals.jitFiles - totals.jitFilesBad, totals.jitFiles);
console.log(`files read:              ${totals.files} (${(totals.ms / 1000).toFixed(1)} s of parsing)`);
console.log(
  `@pl.program programs:    ${totals.programs - totals.programsBad} / ${totals.programs} read without error = ${progRate.toFixed(2)}%`,
);
console.log(
  `module kernel files:     ${totals.jitFiles - totals.jitFilesBad} / ${totals.jitFiles} read without error = ${jitRate.toFixed(2)}% (${totals.jitKernels - totals.jitKernelsBad} / ${totals.jitKernels} kernels)`,
);
console.log(`silent files:            ${totals.silent}${silent.length > 0 ? ` (${silent.slice(0, 10).join(', ')})` : ''}`);
console.log(`internal errors:         ${totals.crashed}`);
if (messages.size > 0) {
  console.log(`\nmost frequent errors (by count of diagnostics):`);
  for (const [k, n] of [...messages].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${String(n).padStart(6)}  ${k}`);
}
if (list && failing.length > 0) console.log(`\n${failing.join('\n')}`);
process.exit(totals.silent > 0 || totals.crashed > 0 || progRate < 99.5 || jitRate < 99.5 ? 1 : 0);
