#!/usr/bin/env node
// IR memory benchmark: the JS heap the parsed IR holds, and what the facts extractor's id
// table adds, per statement (after a full garbage collection, the module text excluded).
//
//   npm run build && node bench/frontend/ir-heap.mjs [--sizes 100000,1000000] [--unique] [--workload comm|orch]
//
// Each size runs in its own child process (`--expose-gc`); the facts go to a sink that keeps
// nothing, so the id table is all the extractor adds.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.PTOLOG_DIST ?? join(here, '..', '..', 'dist');
const imp = (p) => import(pathToFileURL(join(dist, p)).href);

async function child(n, workload, unique) {
  const { parseModule } = await imp('frontend/index.js');
  const { extractFacts } = await imp('facts/extract.js');
  const { commKernelText, orchestrationText } = await imp('gen/large.js');
  const text = workload === 'orch' ? orchestrationText(n) : commKernelText(n, 'flat', unique);
  const heap = () => {
    global.gc();
    global.gc();
    return process.memoryUsage().heapUsed;
  };
  const h0 = heap();
  const module = parseModule(text, `bench-${n}.py`);
  const parsed = process.resourceUsage().maxRSS / 1024;
  const h1 = heap();
  let facts = 0;
  const table = extractFacts(module, {
    add() {
      facts++;
    },
  });
  const h2 = heap();
  const keep = [module, table];
  process.stdout.write(
    `${JSON.stringify({
      n,
      workload,
      unique,
      facts,
      irBytes: h1 - h0,
      tableBytes: h2 - h1,
      parseRssMiB: parsed,
      kept: keep.length,
    })}\n`,
  );
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(Number(args[1]), args[2], args[3] === 'unique');
} else {
  const get = (flag, dflt) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const sizes = get('--sizes', '100000,1000000').split(',').map(Number);
  const workload = get('--workload', 'comm');
  const unique = args.includes('--unique');
  console.log(`IR heap: workload=${workload}${unique ? ', every statement unique' : ''}`);
  console.log('| statements | IR heap MB | IR bytes / stmt | id table MB | id table bytes / stmt | peak RSS after parse MiB |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const n of sizes) {
    const r = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), '--child', String(n), workload, unique ? 'unique' : 'repeat'],
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
    const mb = (b) => (b / 1e6).toFixed(1);
    console.log(
      `| ${n} | ${mb(row.irBytes)} | ${(row.irBytes / n).toFixed(0)} | ${mb(row.tableBytes)} | ${(row.tableBytes / n).toFixed(0)} | ${row.parseRssMiB.toFixed(0)} |`,
    );
  }
}
