#!/usr/bin/env node
// audit vs apply on the same InCore communication kernel (`commKernelText`), each command's
// library call timed in a fresh process per size (the CLI's work minus Node's start-up and
// printing): `apply --pass insert-comm-fence` (parse, facts, pass rules, rewrite) and
// `audit --pass insert-comm-fence` (parse, facts, pass + contract rules, findings).
// Also the audit of apply's output (every marker in place: the region invalidates a write's
// class must match). Goal: audit <= 1.5x apply at every size, both linear (x10 work <= x11 time).
// `--workload orch`: the same three commands with `--pass expand-manual-phase-fence` on
// orchestration code of N `pl.submit` statements (`orchestrationText`).
//
//   npm run build && node bench/audit/run.mjs [--workload comm|orch] [--sizes 1000,10000,100000] [--unique]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', '..', 'dist');
const imp = (p) => import(pathToFileURL(join(dist, p)).href);

async function child(n, what, unique, workload) {
  const { commKernelText, orchestrationText } = await imp('gen/large.js');
  const { applyPasses, auditText } = await imp('passes/pipeline.js');
  const { passByName } = await imp('passes/registry.js');
  // As the CLI runs them: a full collection when a large module's tree becomes garbage.
  const { fullCollection } = await imp('cli/collect.js');
  const run = { collect: fullCollection() };
  const orch = workload === 'orch';
  const pass = passByName(orch ? 'expand-manual-phase-fence' : 'insert-comm-fence');
  let text = orch ? orchestrationText(n) : commKernelText(n, 'flat', unique);
  if (what === 'audit-applied') text = applyPasses(text, 'bench.py', [pass]).text;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let out;
  if (what === 'apply') out = applyPasses(text, 'bench.py', [pass], run).text.length;
  else out = auditText(text, 'bench.py', [pass], run).length;
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ n, what, ms, cpuMs: (c.user + c.system) / 1000, out, rssMB: process.resourceUsage().maxRSS / 1024 }));
}

if (process.argv[2] === '--child') {
  await child(Number(process.argv[3]), process.argv[4], process.argv[5] === 'unique', process.argv[6] ?? 'comm');
} else {
  const arg = process.argv.indexOf('--sizes');
  const sizes = arg > 0 ? process.argv[arg + 1].split(',').map(Number) : [1_000, 10_000, 100_000];
  const unique = process.argv.includes('--unique');
  const w = process.argv.indexOf('--workload');
  const workload = w > 0 ? process.argv[w + 1] : 'comm';
  if (workload !== 'comm' && workload !== 'orch') {
    console.error(`--workload: comm or orch, not ${workload}`);
    process.exit(2);
  }
  const rows = [];
  for (const n of sizes) {
    const row = { n };
    for (const what of ['apply', 'audit', 'audit-applied']) {
      const r = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', String(n), what, unique ? 'unique' : 'repeating', workload],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) {
        console.error(`${what} at ${n} failed:\n${r.stderr}`);
        process.exit(1);
      }
      row[what] = JSON.parse(r.stdout.trim().split('\n').pop());
    }
    rows.push(row);
  }
  const s = (ms) => (ms / 1000).toFixed(2);
  const title =
    workload === 'orch'
      ? 'orchestration code, expand-manual-phase-fence'
      : `InCore comm kernel (${unique ? 'unique' : 'repeating'} text), insert-comm-fence`;
  console.log(
    `${title}, load average ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  // Wall time, and CPU time (user + system, garbage collector threads included): on a shared
  // machine the CPU time is the steadier measure.
  for (const [label, k] of [
    ['wall', 'ms'],
    ['CPU', 'cpuMs'],
  ]) {
    console.log(`\n${label} time`);
    console.log(
      '| statements | apply s | audit s | audit / apply | audit of applied s | audit of applied / apply | findings | peak RSS MB apply / audit |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const a = r.apply[k];
      console.log(
        `| ${r.n.toLocaleString('en')} | ${s(a)} | ${s(r.audit[k])} | ${(r.audit[k] / a).toFixed(2)} | ${s(r['audit-applied'][k])} | ${(r['audit-applied'][k] / a).toFixed(2)} | ${r.audit.out} | ${r.apply.rssMB.toFixed(0)} / ${r.audit.rssMB.toFixed(0)} |`,
      );
    }
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1],
        b = rows[i];
      const g = (w) => (b[w][k] / a[w][k]).toFixed(1);
      console.log(
        `growth ${a.n.toLocaleString('en')} -> ${b.n.toLocaleString('en')} (x${b.n / a.n}): apply x${g('apply')}, audit x${g('audit')}, audit of applied x${g('audit-applied')}`,
      );
    }
  }
}
