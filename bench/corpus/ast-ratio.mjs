#!/usr/bin/env node
// ptolog audit against Python's own ast.parse over the same files: the CPU of
// `ptolog audit --jobs 1` on every .py file under the given folders, and of one python3 process
// that reads and ast.parse()s the same files (both fresh processes, CPU as /usr/bin/time reports
// user + system). Prints both and the ratio (issue 29's goal: at most 5x).
//   npm run build && node bench/corpus/ast-ratio.mjs /path/to/pypto/examples /path/to/pypto/tests
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (dirs.length === 0) {
  console.error('usage: node bench/corpus/ast-ratio.mjs DIR...');
  process.exit(2);
}
const files = [];
const walk = (d) => {
  for (const n of readdirSync(d).sort()) {
    const p = join(d, n);
    const s = statSync(p);
    if (s.isDirectory()) walk(p);
    else if (n.endsWith('.py')) files.push(p);
  }
};
for (const d of dirs) walk(d);

/** CPU seconds (user + system) and wall of one command, from /usr/bin/time. */
function timed(cmd, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e', cmd, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [u, s, e] = last.split(' ').map(Number);
  return { cpu: u + s, wall: e, status: r.status };
}

const list = join(mkdtempSync(join(tmpdir(), 'ptolog-ast-')), 'files.txt');
writeFileSync(list, files.join('\n'));
const py = timed('python3', [
  '-c',
  `import ast, sys\nfor p in open(sys.argv[1]).read().split('\\n'):\n    src = open(p, 'rb').read()\n    try:\n        ast.parse(src)\n    except (SyntaxError, ValueError):\n        pass\n`,
  list,
]);
const pt = timed(process.execPath, [join(root, 'bin', 'ptolog.js'), 'audit', '--jobs', '1', '--format', 'json', ...dirs]);
console.log(`${files.length} .py files`);
console.log(`python3 ast.parse: CPU ${py.cpu.toFixed(2)} s (wall ${py.wall.toFixed(2)} s)`);
console.log(`ptolog audit -j 1: CPU ${pt.cpu.toFixed(2)} s (wall ${pt.wall.toFixed(2)} s, exit ${pt.status})`);
console.log(`ratio ptolog / ast.parse (CPU): ${(pt.cpu / py.cpu).toFixed(1)}x (goal: at most 5x)`);
