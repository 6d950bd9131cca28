#!/usr/bin/env node
// Pipeline benchmark, each stage timed: parse, facts, evaluation, rewrite (tree edit + text
// patch), print (canonical fmt of the result). Each size runs in its own child process so the
// peak RSS is that run's. Workloads:
//   comm  `apply --pass insert-comm-fence` on InCore kernels of N unrolled statements
//   orch  `apply --pass expand-manual-phase-fence` on orchestration code with N Submits
//
//   npm run build && node bench/pipeline/run.mjs [--workload comm|orch] [--sizes 10000,100000,1000000]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', '..', 'dist');
const imp = (p) => import(pathToFileURL(join(dist, p)).href);

async function child(n, workload) {
  const { commKernelText, orchestrationText } = await imp('gen/large.js');
  const { parseModule } = await imp('frontend/index.js');
  const { extractFacts } = await imp('facts/extract.js');
  const { evaluate } = await imp('datalog/index.js');
  const { loadRules } = await imp('passes/analyze.js');
  const { databaseSink } = await imp('passes/database-sink.js');
  const { readEdits } = await imp('passes/read-edits.js');
  const { rewrite } = await imp('rewrite/rewrite.js');
  const { printModule } = await imp('ir/print.js');
  const text = workload === 'orch' ? orchestrationText(n) : commKernelText(n);
  const { program } = loadRules(
    workload === 'orch' ? 'expand_manual_phase_fence/expand_manual_phase_fence.dl' : 'insert_comm_fence/insert_comm_fence.dl',
  );
  const t = {};
  let t0 = performance.now();
  const module = parseModule(text, 'bench.py');
  t.parse = performance.now() - t0;
  t0 = performance.now();
  const db = program.newDatabase();
  const sink = databaseSink(program, db);
  let facts = 0;
  const table = extractFacts(module, {
    add(rel, tuple) {
      facts++;
      sink.add(rel, tuple);
    },
    wants: (rel) => sink.wants?.(rel) ?? true,
  });
  void db.relations; // the relations are built from the streamed rows here (part of loading the facts)
  t.facts = performance.now() - t0;
  t0 = performance.now();
  const result = evaluate(program, db);
  t.eval = performance.now() - t0;
  t0 = performance.now();
  const edits = readEdits(result);
  const r = rewrite(module, table, edits);
  t.rewrite = performance.now() - t0;
  t0 = performance.now();
  const printed = printModule(r.module);
  t.print = performance.now() - t0;
  const rss = process.resourceUsage().maxRSS / 1024;
  const mem = process.memoryUsage(); // what is held at the end: the JS heap (IR, id table) and the relations' typed arrays
  console.log(
    JSON.stringify({
      n,
      facts,
      edits: r.applied,
      bytes: text.length,
      outBytes: printed.length,
      t,
      rssMB: rss,
      heapMB: mem.heapUsed / 2 ** 20,
      arrayBuffersMB: mem.arrayBuffers / 2 ** 20,
    }),
  );
}

if (process.argv[2] === '--child') {
  await child(Number(process.argv[3]), process.argv[4]);
} else {
  const w = process.argv.indexOf('--workload');
  const workload = w > 0 ? process.argv[w + 1] : 'comm';
  const arg = process.argv.indexOf('--sizes');
  const sizes = arg > 0 ? process.argv[arg + 1].split(',').map(Number) : [10_000, 100_000, 1_000_000];
  const rows = [];
  for (const n of sizes) {
    // Node's default heap limit: the memory goal (< 1 GiB at 1M statements) is not met by raising it.
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(n), workload], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(`size ${n} failed:\n${r.stderr}`);
      continue;
    }
    rows.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
  const f = (ms) => (ms / 1000).toFixed(2);
  console.log(`workload: ${workload}`);
  console.log(
    `load average ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    '| size | facts | parse s | facts s | eval s | rewrite s | print s | (facts+eval+rewrite)/parse | whole/parse | peak RSS MB | JS heap / typed arrays at the end MB |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const { parse, facts, eval: ev, rewrite, print } = r.t;
    const whole = parse + facts + ev + rewrite + print;
    console.log(
      `| ${r.n.toLocaleString('en')} | ${r.facts.toLocaleString('en')} | ${f(parse)} | ${f(facts)} | ${f(ev)} | ${f(rewrite)} | ${f(print)} | ${((facts + ev + rewrite) / parse).toFixed(2)} | ${(whole / parse).toFixed(2)} | ${r.rssMB.toFixed(0)} | ${r.heapMB.toFixed(0)} / ${r.arrayBuffersMB.toFixed(0)} |`,
    );
  }
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1],
      b = rows[i];
    const tot = (r) => Object.values(r.t).reduce((x, y) => x + y, 0);
    console.log(
      `growth ${a.n} -> ${b.n} (x${(b.n / a.n).toFixed(0)}): total time x${(tot(b) / tot(a)).toFixed(2)}, eval x${(b.t.eval / a.t.eval).toFixed(2)}, parse x${(b.t.parse / a.t.parse).toFixed(2)}`,
    );
  }
}
