#!/usr/bin/env node
// ptolog `apply` against PyPTO's own parse + pass + print on the same InCore kernel file.
//
// For each size, one generated InCore communication kernel (`commKernelText`, unique text) is
// written to a file and processed end to end, each in a fresh process, wall time including
// start-up:
//   ptolog: `node bin/ptolog.js apply --pass insert-comm-fence FILE` (parse, facts, rules,
//           rewrite, print the result);
//   PyPTO:  `python3` running the file (PyPTO's Python frontend parses it at `@pl.program`),
//           `passes.insert_comm_fence()` on the program, `ir.python_print` of the result.
// The ratio is ptolog / PyPTO (< 1: ptolog is faster). PyPTO is used only when
// `python3 -c "import pypto"` succeeds; otherwise the benchmark says "no PyPTO found" and
// times ptolog alone.
//
//   npm run build && node bench/pypto/run.mjs [--sizes 1000,4000] [--runs 3]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const sizes = arg('--sizes', '1000,4000').split(',').map(Number);
const runs = Number(arg('--runs', '3'));
const out = join(root, 'bench', 'out', 'pypto');
mkdirSync(out, { recursive: true });

const { commKernelText } = await import(pathToFileURL(join(root, 'dist', 'gen', 'large.js')).href);

// Runs the kernel file through PyPTO: parse (by executing the module), the pass, the printer.
const PYPTO_DRIVER = `
import runpy, sys
from pypto import ir
from pypto.pypto_core import passes
ns = runpy.run_path(sys.argv[1])
programs = [v for v in ns.values() if isinstance(v, ir.Program)]
if not programs:
    sys.exit("no @pl.program in " + sys.argv[1])
with passes.PassContext([]):
    for p in programs:
        sys.stdout.write(ir.python_print(passes.insert_comm_fence()(p)))
`;

// PyPTO checks every load / store / notify against its tensor's shape, and the generated kernel's
// offsets grow with the statement index: the parameters are made wide enough for them (the same
// file for both tools; ptolog's findings and edits do not depend on the widths).
function validForPypto(text, n) {
  return text.replace(/^N = (\d+)$/m, (_, v) => `N = ${v}\nW = ${Number(v) + n + 64}`).replace(/(Tensor\[\[1, )(N|1)\]/g, '$1W]');
}

const havePypto = spawnSync('python3', ['-c', 'import pypto'], { encoding: 'utf8' }).status === 0;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(cmd, args) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && !(cmd === process.execPath && r.status === 1)) {
    console.error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr}`);
    process.exit(1);
  }
  return ms;
}

console.log(
  `InCore comm kernel (unique text), ${runs} run(s) per size, median; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
if (!havePypto) console.log('no PyPTO found (`python3 -c "import pypto"` failed): timing ptolog alone');
console.log('| statements | ptolog apply (s) | PyPTO parse + pass + print (s) | ptolog / PyPTO |');
console.log('|---:|---:|---:|---:|');
for (const n of sizes) {
  const file = join(out, `kernel_${n}.py`);
  writeFileSync(file, validForPypto(commKernelText(n, 'flat', true), n));
  const ptolog = median(
    Array.from({ length: runs }, () =>
      timed(process.execPath, [join(root, 'bin', 'ptolog.js'), 'apply', '--pass', 'insert-comm-fence', file]),
    ),
  );
  const pypto = havePypto ? median(Array.from({ length: runs }, () => timed('python3', ['-c', PYPTO_DRIVER, file]))) : undefined;
  const s = (ms) => (ms / 1000).toFixed(2);
  console.log(
    `| ${n.toLocaleString('en')} | ${s(ptolog)} | ${pypto === undefined ? 'no PyPTO found' : s(pypto)} | ${pypto === undefined ? '–' : (ptolog / pypto).toFixed(2)} |`,
  );
}
