#!/usr/bin/env node
// The language server where users meet it, driven over stdio by vscode-jsonrpc as an editor
// drives it: wall time from didOpen to the first diagnostics; the server's CPU for a
// one-character edit until its diagnostics come back; hover and codeAction on a line without
// findings (latency, also while an analysis runs). The server's CPU is read from
// /proc/<pid>/stat (utime + stime). Median of --runs (default 5) edits.
// --statements N: a generated single-program file of about N statements (gen.mjs), edited inside
// one kernel's body.
//   npm run build && node bench/lsp/run.mjs [--file examples/ring_allreduce.py | --statements 2000] [--runs 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const runs = Number(opt('--runs', '5'));
let editLine = Number(opt('--edit-line', '0')); // 0: the last line
let file = resolve(root, opt('--file', 'examples/ring_allreduce.py'));
if (args.includes('--statements')) {
  const { singleProgram } = await import('./gen.mjs');
  const g = singleProgram(Number(opt('--statements', '2000')));
  file = join(mkdtempSync(join(tmpdir(), 'ptolog-lsp-bench-')), 'generated.py');
  writeFileSync(file, g.text);
  if (editLine === 0) editLine = g.editLine;
}

const ticks = 100; // USER_HZ on Linux
const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / ticks; // utime, stime (fields 14, 15)
};

// --cpu-prof DIR: the server's CPU profiles (one per thread) written there.
const prof = args.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir', resolve(opt('--cpu-prof'))] : [];
const child = spawn(process.execPath, [...prof, join(root, 'bin', 'ptolog.js'), 'lsp', '--stdio'], {
  cwd: root,
  stdio: ['pipe', 'pipe', 'inherit'],
});
const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const uri = pathToFileURL(file).href;
let waiting = null;
conn.onNotification('textDocument/publishDiagnostics', (p) => {
  if (p.uri === uri && waiting) {
    const w = waiting;
    waiting = null;
    w(p);
  }
});
conn.onNotification('window/logMessage', () => {});
conn.onRequest('workspace/configuration', (p) => p.items.map(() => null));
conn.listen();
const diagnostics = () => new Promise((r) => (waiting = r));

await conn.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: {} });
await conn.sendNotification('initialized', {});
const text = readFileSync(file, 'utf8');
const lines = text.split('\n');
// (Default: the last statement.)
let target = editLine > 0 ? editLine - 1 : lines.length - 1;
while (target > 0 && lines[target].trim() === '') target--;

const t0 = performance.now();
const cpu0 = cpuOf(child.pid);
const first = diagnostics();
await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
const d0 = await first;
const open = { wall: performance.now() - t0, cpu: cpuOf(child.pid) - cpu0, findings: d0.diagnostics.length };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const editCpu = [];
const editWall = [];
for (let i = 0; i < runs; i++) {
  // Insert a space before the chosen line's last character and take it back: a one-character
  // edit inside the statement each time (a space after a function's last statement lies outside
  // the function: nothing would be analysed again).
  const col = Math.max(0, lines[target].length - 1);
  const insert = i % 2 === 0;
  const c = cpuOf(child.pid);
  const t = performance.now();
  const got = diagnostics();
  await conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 + i },
    contentChanges: [
      insert
        ? { range: { start: { line: target, character: col }, end: { line: target, character: col } }, text: ' ' }
        : { range: { start: { line: target, character: col }, end: { line: target, character: col + 1 } }, text: '' },
    ],
  });
  await got;
  editWall.push(performance.now() - t);
  editCpu.push(cpuOf(child.pid) - c);
}
// A line without findings: the first line no diagnostic touches.
const busy = new Set(d0.diagnostics.map((d) => d.range.start.line));
let quiet = 0;
while (busy.has(quiet)) quiet++;
const timeReq = async (method, params) => {
  const t = performance.now();
  await conn.sendRequest(method, params);
  return performance.now() - t;
};
const pos = { line: quiet, character: 0 };
const range = { start: pos, end: pos };
const hover = await timeReq('textDocument/hover', { textDocument: { uri }, position: pos });
const action = await timeReq('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [] } });
// The same while an analysis runs: an edit, then at once the requests.
await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 100 }, contentChanges: [{ text: `${text}\n` }] });
const hoverBusy = await timeReq('textDocument/hover', { textDocument: { uri }, position: pos });
const actionBusy = await timeReq('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [] } });
await conn.sendRequest('shutdown');
await conn.sendNotification('exit');
await new Promise((r) => child.once('exit', r));

console.log(`file: ${file} (${lines.length} lines, ${open.findings} findings)`);
console.log(
  `didOpen -> first diagnostics: ${open.wall.toFixed(0)} ms wall, ${(open.cpu * 1000).toFixed(0)} ms server CPU (goal: within 300 ms)`,
);
console.log(
  `one-character edit -> diagnostics: server CPU median ${(median(editCpu) * 1000).toFixed(0)} ms, wall median ${median(editWall).toFixed(0)} ms (the server waits ~200 ms after a keystroke before analysing)`,
);
console.log(
  `hover / codeAction on a quiet line: ${hover.toFixed(1)} / ${action.toFixed(1)} ms; during an analysis: ${hoverBusy.toFixed(1)} / ${actionBusy.toFixed(1)} ms (goal: within 20 ms)`,
);
process.exit(0);
