#!/usr/bin/env node
// Frontend benchmark: parse time and peak RSS for programs of 10k / 100k / 1M statements.
//
//   npm run build && node bench/frontend/parse-bench.mjs [--sizes 10000,100000,1000000]
//       [--shape flat|nested] [--unique]
//
// Each size runs in its own child process (so `process.resourceUsage().maxRSS` is that
// parse's peak). The generated module has one @pl.program with one InCore function holding
// N unrolled statements (pl.load / pl.store / pld.system.notify / pld.system.wait / a guarded
// fence, from src/gen/large.ts); `--shape nested` puts them inside a for loop and a with
// scope (exercises the split of huge compound statements). Unrolled code repeats lines, which
// the parser's statement-group cache exploits; `--unique` makes every statement's text
// different, so every statement goes through the grammar (the parser's raw speed).
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.PTOLOG_DIST ?? join(here, '..', '..', 'dist');

async function child(n, shape, unique) {
  const { parseModule } = await import(pathToFileURL(join(dist, 'frontend', 'index.js')).href);
  const { commKernelText } = await import(pathToFileURL(join(dist, 'gen', 'large.js')).href);
  const text = commKernelText(n, shape, unique);
  const rssBefore = process.resourceUsage().maxRSS;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const m = parseModule(text, `bench-${n}.py`);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const fn = m.programs[0].functions[0];
  const count = (body) => body.reduce((k, s) => k + 1 + (s.body ? count(s.body) : 0) + (s.then ? count(s.then) : 0) + (s.orelse ? count(s.orelse) : 0), 0);
  process.stdout.write(`${JSON.stringify({
    n, shape, unique, chars: text.length, stmts: count(fn.body), ms, cpuMs,
    maxRssMiB: process.resourceUsage().maxRSS / 1024, rssBeforeMiB: rssBefore / 1024,
  })}\n`);
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(Number(args[1]), args[2], args[3] === 'unique');
} else {
  const get = (flag, dflt) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const sizes = get('--sizes', '10000,100000,1000000').split(',').map(Number);
  const shape = get('--shape', 'flat');
  const unique = args.includes('--unique');
  console.log(`frontend parse benchmark: shape=${shape}${unique ? ', every statement unique' : ', unrolled (repeating) statements'}`);
  const rows = [];
  for (const n of sizes) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(n), shape, unique ? 'unique' : 'repeat'], {
      encoding: 'utf8', env: { ...process.env, PTOLOG_DIST: dist },
    });
    if (r.status !== 0) {
      process.stderr.write(r.stderr);
      process.exit(1);
    }
    const row = JSON.parse(r.stdout.trim().split('\n').pop());
    rows.push(row);
    console.log(
      `${String(n).padStart(8)} stmts  ${(row.chars / 1e6).toFixed(1).padStart(6)} MB  ` +
        `${(row.ms / 1000).toFixed(2).padStart(7)} s (cpu ${(row.cpuMs / 1000).toFixed(2)} s)  ${(row.ms * 1000 / n).toFixed(1).padStart(6)} us/stmt  ` +
        `peak RSS ${row.maxRssMiB.toFixed(0).padStart(5)} MiB`,
    );
  }
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1], b = rows[i];
    console.log(`  ${a.n} -> ${b.n}: size x${(b.n / a.n).toFixed(0)}, time x${(b.ms / a.ms).toFixed(2)}, peak RSS x${(b.maxRssMiB / a.maxRssMiB).toFixed(2)}`);
  }
}
