#!/usr/bin/env node
// `fmt` benchmark: time to print the canonical form (and, for context, to parse) of modules
// of 10k / 100k / 1M statements; growth should be linear.
//
//   npm run build && node bench/fmt/fmt-bench.mjs [--sizes 10000,100000,1000000] [--shape flat|nested]
//                                                 [--full-max 100000] [--json FILE]
//
// Each size runs in its own child process and measures two things:
// - print: `printModule` on an IR of N statements (deep copies of a parsed 2k-statement
//   chunk, so a 1M-statement print does not wait for a 1M-statement parse);
// - fmt: parse + print of generated text of N statements (sizes up to --full-max only; the
//   parse dominates), plus a check that fmt(fmt(x)) == fmt(x).
// The generated text uses non-canonical spellings
// (short op names, keyword arguments, 2-space indentation, comments, `pl.manual_scope()`),
// so fmt really rewrites it. The statements are a mix of op calls, assignments, element
// writes, submits, ifs, loops with iter-args and scopes; `--shape nested` wraps them all in
// a `for` loop and a `with` scope.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.PTOLOG_DIST ?? join(here, '..', '..', 'dist');

/** A module whose one InCore function and one Orchestration function hold ~n statements in total. */
export function generate(n, shape = 'flat') {
  const I = '  ';
  const lines = [
    'import pypto.language as pl',
    'import pypto.language.distributed as pld',
    'N = 8',
    '@pl.program',
    'class Bench:',
    `${I}@pl.function(type=pl.FunctionType.InCore)`,
    `${I}def kernel(self, t: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],`,
    `${I}           sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):`,
  ];
  let ind = I + I;
  const open = () => {
    if (shape === 'nested') {
      lines.push(`${ind}for i in range(0, 4):`);
      ind += I;
      lines.push(`${ind}with pl.at(name_hint="k", level=pl.Level.CORE_GROUP):`);
      ind += I;
    }
  };
  open();
  const half = Math.floor(n / 2);
  let count = 0;
  while (count < half) {
    const i = count;
    switch (i % 8) {
      case 0:
        lines.push(`${ind}x${i % 97} = pl.load(t, [0, ${i % 8}], [1, N])  # load`);
        count++;
        break;
      case 1:
        lines.push(`${ind}pl.store(x${(i - 1) % 97}, offsets=[0, ${i % 8}], output_tensor=win)`);
        count++;
        break;
      case 2:
        lines.push(`${ind}pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=0)`);
        count++;
        break;
      case 3:
        lines.push(`${ind}pld.system.wait(signal=sig, offsets=[0, 0], expected=${i % 7}, cmp=pld.WaitCmp.Ge)`);
        count++;
        break;
      case 4:
        lines.push(`${ind}if peer != ${i % 4}:`, `${ind}${I}pl.system.fence()`, `${ind}else:`, `${ind}${I}y = (peer + 1) * 2 - N // 2`);
        count += 4;
        break;
      case 5:
        lines.push(
          `${ind}for j, (acc,) in pl.range(N, init_values=(x0,)):`,
          `${ind}${I}v = pl.read(win, [0, j])`,
          `${ind}${I}acc2 = pl.yield_(acc)`,
        );
        count += 3;
        break;
      case 6:
        lines.push(`${ind}pld.tile.remote_store(x0, target=win, peer=peer, offsets=[0, ${i % 8}])`);
        count++;
        break;
      default:
        lines.push(`${ind}pl.write(win, [0, ${i % 8}], peer)`);
        count++;
        break;
    }
  }
  ind = I + I;
  lines.push(
    '',
    `${I}@pl.function(type=pl.FunctionType.Orchestration)`,
    `${I}def main(self, t: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):`,
  );
  open();
  lines.push(`${ind}with pl.manual_scope():`);
  ind += I;
  lines.push(`${ind}tids = pl.array.create(4, pl.TASK_ID)`);
  count++;
  while (count < n) {
    const i = count;
    switch (i % 3) {
      case 0:
        lines.push(`${ind}t, tid = pl.submit(self.kernel, t, win, sig, peer, deps=[tids])`);
        count++;
        break;
      case 1:
        lines.push(`${ind}tids[${i % 4}] = tid`);
        count++;
        break;
      default:
        lines.push(`${ind}b = pl.system.task_dummy(deps=[tids])`);
        count++;
        break;
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Top-level statements (with nested ones) of a body. */
function countStmts(body) {
  let k = 0;
  for (const s of body) {
    k++;
    for (const key of ['body', 'then', 'orelse']) if (Array.isArray(s[key])) k += countStmts(s[key]);
  }
  return k;
}

async function child(n, shape, fullMax) {
  const { parseModule } = await import(pathToFileURL(join(dist, 'frontend', 'index.js')).href);
  const { printModule } = await import(pathToFileURL(join(dist, 'ir', 'print.js')).href);
  const row = { n, shape };
  // 1. print only: an IR of n statements made of deep copies of a parsed 2k-statement chunk
  //    (so the measurement does not wait for a 1M-statement parse).
  const chunk = parseModule(generate(2000, 'flat'), 'chunk.py');
  const [kc, oc] = chunk.programs[0].functions;
  const kBody = [];
  const oBody = [];
  let count = 0;
  while (count < n) {
    const kb = structuredClone(kc.body);
    const ob = structuredClone(oc.body);
    kBody.push(...kb);
    oBody.push(...ob);
    count += countStmts(kb) + countStmts(ob);
  }
  const big = {
    constants: chunk.constants,
    programs: [
      {
        ...chunk.programs[0],
        functions: [
          { ...kc, body: kBody },
          { ...oc, body: oBody },
        ],
      },
    ],
  };
  row.stmts = count;
  printModule({ constants: chunk.constants, programs: chunk.programs }); // warm-up
  if (global.gc) global.gc();
  const t0 = process.hrtime.bigint();
  const printed = printModule(big);
  row.printMs = Number(process.hrtime.bigint() - t0) / 1e6;
  row.outChars = printed.length;
  // 2. full fmt (parse + print) of generated non-canonical text, with an idempotence check.
  if (n <= fullMax) {
    const text = generate(n, shape);
    row.inChars = text.length;
    const t1 = process.hrtime.bigint();
    const out = printModule(parseModule(text, `bench-${n}.py`));
    row.fmtMs = Number(process.hrtime.bigint() - t1) / 1e6;
    row.idempotent = printModule(parseModule(out, `bench-${n}-fmt.py`)) === out;
  }
  row.maxRssMiB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(Number(args[1]), args[2], Number(args[3]));
} else if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const get = (flag, dflt) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const sizes = get('--sizes', '10000,100000,1000000').split(',').map(Number);
  const shape = get('--shape', 'flat');
  const jsonOut = get('--json', null);
  const fullMax = get('--full-max', '100000');
  const rows = [];
  for (const n of sizes) {
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=8192', fileURLToPath(import.meta.url), '--child', String(n), shape, fullMax],
      {
        encoding: 'utf8',
        env: { ...process.env, PTOLOG_DIST: dist },
        maxBuffer: 1 << 26,
      },
    );
    if (r.status !== 0) {
      process.stderr.write(r.stderr);
      process.exit(1);
    }
    const row = JSON.parse(r.stdout.trim().split('\n').pop());
    rows.push(row);
    const full =
      row.fmtMs === undefined
        ? 'fmt (parse+print) not run'
        : `fmt (parse+print) ${(row.fmtMs / 1000).toFixed(2).padStart(7)} s (${((row.fmtMs * 1000) / n).toFixed(0)} us/stmt), idempotent ${row.idempotent}`;
    console.log(
      `${String(n).padStart(8)} stmts  print ${row.printMs.toFixed(0).padStart(6)} ms (${((row.printMs * 1000) / row.stmts).toFixed(2)} us/stmt, ` +
        `${(row.outChars / 1e6).toFixed(1)} MB)  ${full}  peak RSS ${row.maxRssMiB.toFixed(0)} MiB`,
    );
  }
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1],
      b = rows[i];
    const f = a.fmtMs !== undefined && b.fmtMs !== undefined ? `, fmt time x${(b.fmtMs / a.fmtMs).toFixed(2)}` : '';
    console.log(`  ${a.n} -> ${b.n}: size x${(b.n / a.n).toFixed(0)}, print time x${(b.printMs / a.printMs).toFixed(2)}${f}`);
  }
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(rows, null, 2)}\n`);
  if (rows.some((r) => r.idempotent === false)) {
    console.error('fmt is not idempotent on a benchmark module');
    process.exit(1);
  }
}
