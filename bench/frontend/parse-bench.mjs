#!/usr/bin/env node
// Frontend benchmark: parse time and peak RSS for programs of 10k / 100k / 1M statements.
//
//   npm run build && node bench/frontend/parse-bench.mjs [--sizes 10000,100000,1000000]
//       [--shape flat|nested] [--unique] [--steady]
//
// Each size runs in its own child process (so `process.resourceUsage().maxRSS` is that
// parse's peak). The generated module has one @pl.program with one InCore function holding
// N unrolled statements (pl.load / pl.store / pld.system.notify / pld.system.wait / a guarded
// fence, from src/gen/large.ts); `--shape nested` puts them inside a for loop and a with
// scope (exercises the split of huge compound statements). Unrolled code repeats lines, which
// the parser's statement-group cache exploits; `--unique` makes every statement's text
// different, so every statement goes through the grammar (the parser's raw speed).
//
// The headline is the first parse of a fresh process (V8 has compiled nothing of the parser
// yet, the heap is small). Also printed: the garbage-collection pauses within it (`gc`), and
// with `--steady` the same text parsed again in the same process (a new parse: nothing of the
// first is reused), what the parser costs once V8 has compiled it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.PTOLOG_DIST ?? join(here, '..', '..', 'dist');

/**
 * CPU milliseconds of this process's main thread (Linux: /proc, in 10 ms ticks), or null: the
 * parse's own work, without V8's compiler and garbage-collector threads (which `cpu` includes).
 */
function mainThreadCpuMs() {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

async function child(n, shape, unique, steady) {
  const { parseModule } = await import(pathToFileURL(join(dist, 'frontend', 'index.js')).href);
  const { commKernelText } = await import(pathToFileURL(join(dist, 'gen', 'large.js')).href);
  const text = commKernelText(n, shape, unique);
  const rssBefore = process.resourceUsage().maxRSS;
  const gcs = [];
  const observer = new PerformanceObserver((list) => gcs.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs();
  const p0 = performance.now();
  const t0 = process.hrtime.bigint();
  const m = parseModule(text, `bench-${n}.py`);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const main1 = mainThreadCpuMs();
  const mainCpuMs = main0 === null || main1 === null ? null : main1 - main0;
  await new Promise((resolve) => setTimeout(resolve, 20));
  gcs.push(...observer.takeRecords());
  observer.disconnect();
  const gcMs = gcs.filter((e) => e.startTime >= p0 && e.startTime <= p0 + ms).reduce((k, e) => k + e.duration, 0);
  let steadyMs = null;
  if (steady) {
    const t1 = process.hrtime.bigint();
    parseModule(text, `bench-${n}.py`);
    steadyMs = Number(process.hrtime.bigint() - t1) / 1e6;
  }
  const fn = m.programs[0].functions[0];
  const count = (body) =>
    body.reduce((k, s) => k + 1 + (s.body ? count(s.body) : 0) + (s.then ? count(s.then) : 0) + (s.orelse ? count(s.orelse) : 0), 0);
  process.stdout.write(
    `${JSON.stringify({
      n,
      shape,
      unique,
      chars: text.length,
      stmts: count(fn.body),
      ms,
      cpuMs,
      mainCpuMs,
      gcMs,
      steadyMs,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      rssBeforeMiB: rssBefore / 1024,
    })}\n`,
  );
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(Number(args[1]), args[2], args[3] === 'unique', args[4] === 'steady');
} else {
  const get = (flag, dflt) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const sizes = get('--sizes', '10000,100000,1000000').split(',').map(Number);
  const shape = get('--shape', 'flat');
  const unique = args.includes('--unique');
  const steady = args.includes('--steady');
  console.log(`frontend parse benchmark: shape=${shape}${unique ? ', every statement unique' : ', unrolled (repeating) statements'}`);
  const rows = [];
  for (const n of sizes) {
    const r = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', String(n), shape, unique ? 'unique' : 'repeat', steady ? 'steady' : ''],
      {
        encoding: 'utf8',
        env: { ...process.env, PTOLOG_DIST: dist },
      },
    );
    if (r.status !== 0) {
      process.stderr.write(r.stderr);
      process.exit(1);
    }
    const row = JSON.parse(r.stdout.trim().split('\n').pop());
    rows.push(row);
    console.log(
      `${String(n).padStart(8)} stmts  ${(row.chars / 1e6).toFixed(1).padStart(6)} MB  ` +
        `${(row.ms / 1000).toFixed(2).padStart(7)} s (cpu ${(row.cpuMs / 1000).toFixed(2)} s${row.mainCpuMs === null ? '' : `, main thread ${(row.mainCpuMs / 1000).toFixed(2)} s`}, gc ${(row.gcMs / 1000).toFixed(2)} s)  ${((row.ms * 1000) / n).toFixed(1).padStart(6)} us/stmt  ` +
        `peak RSS ${row.maxRssMiB.toFixed(0).padStart(5)} MiB` +
        (row.steadyMs === null ? '' : `  (parsed again: ${((row.steadyMs * 1000) / n).toFixed(1)} us/stmt)`),
    );
  }
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1],
      b = rows[i];
    console.log(
      `  ${a.n} -> ${b.n}: size x${(b.n / a.n).toFixed(0)}, time x${(b.ms / a.ms).toFixed(2)}, peak RSS x${(b.maxRssMiB / a.maxRssMiB).toFixed(2)}`,
    );
  }
}
