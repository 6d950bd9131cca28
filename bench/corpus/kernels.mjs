#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
// Acceptance measurement: every kernel function of a PyPTO checkout, as Python's `ast` finds it,
// against the kernels ptolog reads and judges.
//
//   npm run build && node bench/corpus/kernels.mjs /path/to/pypto [--list]
//
// Inputs: every .py file of the checkout (but `.git`, `3rdparty`, `build`) and every ```python
// code block of its `docs/**/*.md`. Python (python3) parses each and lists the kernel functions:
// every `def` (at any nesting) with a PyPTO decorator — `@pl.jit`, `@pl.jit.<kind>`,
// `@pl.function`, `@pl.inline`, or a method of a `@pl.program` class — in every spelling its
// imports allow (`import pypto.language as X`, `from pypto.jit.decorator import jit` then
// `@jit.incore`, `@(pl.program)`, ...). A text without a PyPTO import reads `pl` as
// pypto.language (a docs snippet). A text Python cannot parse is counted apart.
// ptolog reads the same text (frontend, as `audit` does). A kernel is *judged* when ptolog read
// it; *skipped with a note* when ptolog left it out and said so with a diagnostic located in it
// (an error PyPTO's own tests expect, mostly); *silent* otherwise. Exit 1 when one is silent.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseModuleIsolated } from '../../dist/frontend/index.js';

const args = process.argv.slice(2);
const root = args.find((a) => !a.startsWith('--'));
if (!root) {
  console.error('usage: node bench/corpus/kernels.mjs PYPTO_CHECKOUT [--list]');
  process.exit(2);
}
const list = args.includes('--list');
const SKIP = new Set(['.git', '3rdparty', 'build', 'node_modules', '__pycache__', '.venv']);

function* walk(dir, ext) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) yield* walk(p, ext);
    } else if (e.isFile() && e.name.endsWith(ext)) yield p;
  }
}

// The texts: files, then docs code blocks (`offset`: the lines before the block's first line in its .md file).
const texts = [];
for (const f of walk(root, '.py')) texts.push({ name: relative(root, f), text: readFileSync(f, 'utf8'), offset: 0 });
let blocks = 0;
for (const f of walk(join(root, 'docs'), '.md')) {
  const lines = readFileSync(f, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```\s*(python|py)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++)
      body.push(lines[j].slice(Math.min(indent, lines[j].length - lines[j].trimStart().length)));
    texts.push({ name: relative(root, f), text: `${body.join('\n')}\n`, offset: i + 1 });
    blocks++;
    i = j;
  }
}

// Python's view: for each text, the kernels [first decorator line, def line, end line, name] or null (a syntax error).
const PY = `
import ast, json, sys
PATHS = {
  'pypto.jit.jit': 'pl.jit', 'pypto.jit.decorator.jit': 'pl.jit', 'pypto.language.jit': 'pl.jit',
  'pypto.language.program': 'pl.program', 'pypto.language.function': 'pl.function', 'pypto.language.inline': 'pl.inline',
  'pypto.language.parser.decorator.program': 'pl.program', 'pypto.language.parser.decorator.function': 'pl.function',
  'pypto.language.parser.decorator.inline': 'pl.inline',
}
def fold(d):
  for p, c in PATHS.items():
    if d == p or d.startswith(p + '.'):
      return c + d[len(p):]
  return d
def names_of(tree):
  names = {}
  pypto = False
  for n in ast.walk(tree):
    if isinstance(n, ast.Import):
      for a in n.names:
        if a.name.split('.')[0] != 'pypto': continue
        pypto = True
        if a.asname: names[a.asname] = 'pl' if a.name == 'pypto.language' else a.name
        else: names['pypto'] = 'pypto'
    elif isinstance(n, ast.ImportFrom) and n.module and n.module.split('.')[0] == 'pypto':
      pypto = True
      for a in n.names:
        full = n.module + '.' + a.name
        c = 'pl' if full == 'pypto.language' else fold(full)
        if n.module == 'pypto.language': c = 'pl.' + a.name
        names[a.asname or a.name] = c
  if not pypto:
    names.setdefault('pl', 'pl')
  return names
def dotted(e):
  parts = []
  while isinstance(e, ast.Attribute):
    parts.append(e.attr); e = e.value
  if not isinstance(e, ast.Name): return None
  parts.append(e.id)
  return '.'.join(reversed(parts))
def role(dec, names):
  e = dec.func if isinstance(dec, ast.Call) else dec
  d = dotted(e)
  if d is None: return None
  first, _, rest = d.partition('.')
  if first not in names: return None
  d = fold(names[first] + ('.' + rest if rest else ''))
  if d == 'pl.program': return 'program'
  if d == 'pl.jit' or d.startswith('pl.jit.'): return 'jit'
  if d in ('pl.function', 'pl.inline'): return 'function'
  return None
def kernels(tree):
  names = names_of(tree)
  out = []
  def visit(node, in_program):
    for c in ast.iter_child_nodes(node):
      if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)):
        roles = [role(d, names) for d in c.decorator_list]
        if in_program or any(r in ('jit', 'function') for r in roles):
          first = min([d.lineno for d in c.decorator_list] + [c.lineno])
          out.append([first, c.lineno, c.end_lineno, c.name])
        visit(c, False)
      elif isinstance(c, ast.ClassDef):
        visit(c, any(role(d, names) == 'program' for d in c.decorator_list))
      else:
        visit(c, False if not isinstance(c, ast.ClassDef) else in_program)
  visit(tree, False)
  return out
res = []
for t in json.load(sys.stdin):
  try:
    tree = ast.parse(t)
  except (SyntaxError, ValueError):
    res.append(None); continue
  res.append(kernels(tree))
json.dump(res, sys.stdout)
`;
const py = spawnSync('python3', ['-c', PY], { input: JSON.stringify(texts.map((t) => t.text)), maxBuffer: 1 << 28, encoding: 'utf8' });
if (py.status !== 0) {
  console.error(py.stderr);
  process.exit(2);
}
const found = JSON.parse(py.stdout);

const totals = { texts: texts.length, files: texts.length - blocks, blocks, unparsable: 0, kernels: 0, judged: 0, noted: 0, silent: 0 };
const silent = [];
const noted = [];
for (let i = 0; i < texts.length; i++) {
  const t = texts[i];
  const ks = found[i];
  if (ks === null) {
    totals.unparsable++;
    continue;
  }
  if (ks.length === 0) continue;
  let m;
  try {
    m = parseModuleIsolated(t.text, t.name);
  } catch (e) {
    m = { programs: [], problems: [], source: null, crash: String(e) };
  }
  const lineOf = (off) => m.source.position(off).line;
  const read = new Set();
  for (const p of m.programs) for (const f of p.functions) read.add(lineOf(f.start));
  const located = (m.problems ?? []).filter((d) => d.location).map((d) => lineOf(d.location.start));
  for (const [first, def, end, name] of ks) {
    totals.kernels++;
    // (ptolog's function starts at its first decorator, or at `def` without one.)
    if (read.has(first) || read.has(def)) totals.judged++;
    else if (located.some((l) => l >= first && l <= end)) {
      totals.noted++;
      noted.push(`${t.name}:${first + t.offset} ${name}`);
    } else {
      totals.silent++;
      silent.push(`${t.name}:${first + t.offset} ${name}`);
    }
  }
}
const pct = (a, b) => (b === 0 ? '100.0' : ((100 * a) / b).toFixed(1));
console.log(`texts: ${totals.files} .py files and ${totals.blocks} docs code blocks (${totals.unparsable} Python cannot parse)`);
console.log(`kernel functions Python's ast finds: ${totals.kernels}`);
console.log(`  judged by ptolog:              ${totals.judged} (${pct(totals.judged, totals.kernels)}%)`);
console.log(`  left out with a located note:  ${totals.noted}`);
console.log(`  skipped without a word:        ${totals.silent}`);
if (list || totals.silent > 0) for (const s of silent) console.log(`silent: ${s}`);
if (list) for (const s of noted) console.log(`noted: ${s}`);
process.exit(totals.silent > 0 ? 1 : 0);
