// Checks the source tree's structure for `npm run lint`: no import cycle among the modules of
// src/ and playground/src/ (type-only imports count: a cycle of types is still two parts that
// cannot be understood apart), none among its parts (the folders of src/, and the layers of the
// rule engine, src/datalog/*/: see docs/architecture.md), no source file in src/ longer than
// MAX_LINES lines, and no module-level `let`/`var` in src/ outside src/cli/ and the thread entries
// (the library holds no module-level mutable state). Prints each cycle (a → b → a), each long
// file and each such declaration (file:line); exits 1 when there is any.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// `--root DIR` checks another tree laid out alike (the tests' fixtures).
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? resolve(process.argv[rootArg + 1]) : join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['src', 'playground/src'];
/** The longest a source file in src/ may be. */
export const MAX_LINES = 600;
/** Folders whose sub-folders are parts of their own (layers); any other folder of src/ is one part with its sub-folders. */
const LAYERED = ['src/datalog'];
/** Generated files, exempt from the length limit. */
const GENERATED = new Set(['src/datalog/syntax/datalog-recipe.ts']);
/** Where module-level `let`/`var` may be: the process's entry (src/cli/) and the entries of threads, whose state is their own. */
const STATE_HOLDERS = ['src/cli/'];
const STATE_ENTRIES = new Set(['src/lsp/analysis-worker.ts']);
/** Every .ts file under `dir`, as absolute paths. */
function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The relative module specifiers `file` imports or re-exports (static and dynamic `import()`). */
export function importsOf(file, text) {
  const specs = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specs.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) specs.push(arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specs.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs.filter((s) => s.startsWith('.'));
}

/** The module-level `let` and `var` declarations of a source text (not `declare`d ones): [1-based line, its text]. */
export function moduleLets(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out = [];
  for (const st of source.statements) {
    if (!ts.isVariableStatement(st)) continue;
    if (st.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) continue;
    if ((st.declarationList.flags & (ts.NodeFlags.Const | ts.NodeFlags.Using)) !== 0) continue;
    const start = st.getStart(source);
    const line = source.getLineAndCharacterOfPosition(start).line;
    const end = text.indexOf('\n', start);
    out.push([line + 1, text.slice(start, end < 0 ? text.length : end).trim()]);
  }
  return out;
}

/** The import graph: file → the files it imports (only files of the graph). */
export function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const deps = new Set();
    for (const spec of importsOf(file, readFileSync(file, 'utf8'))) {
      const base = resolve(dirname(file), spec);
      for (const cand of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base, `${base}.ts`, join(base, 'index.ts')]) {
        if (known.has(cand)) {
          deps.add(cand);
          break;
        }
      }
    }
    graph.set(file, [...deps].sort());
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself), iterative Tarjan. */
export function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const deps = graph.get(v);
      if (i < deps.length) {
        frame[1]++;
        const w = deps[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const u = work[work.length - 1][0];
        low.set(u, Math.min(low.get(u), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const comp = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          comp.push(w);
        } while (w !== v);
        if (comp.length > 1 || graph.get(v).includes(v)) out.push(comp);
      }
    }
  }
  return out;
}

/** The part a file belongs to: its folder under src/ (a layer's under a LAYERED folder); playground files are one part. */
export function partOf(rel) {
  const dirs = rel.split('/').slice(0, -1);
  for (const l of LAYERED) if (rel.startsWith(`${l}/`)) return dirs.slice(0, l.split('/').length + 1).join('/');
  return dirs.slice(0, 2).join('/');
}

/** The graph of parts: part → the other parts its files import. */
export function partGraph(graph) {
  const parts = new Map();
  for (const [file, deps] of graph) {
    const a = partOf(relative(root, file));
    if (!parts.has(a)) parts.set(a, new Set());
    for (const d of deps) {
      const b = partOf(relative(root, d));
      if (b !== a) parts.get(a).add(b);
    }
  }
  return new Map([...parts].map(([k, v]) => [k, [...v].sort()]));
}

/** One cycle through the component `comp`, as a path that returns to its first file. */
function cyclePath(graph, comp) {
  const inComp = new Set(comp);
  const start = comp.slice().sort()[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)) path.splice(1, 0, x);
        return [...path, start];
      }
      if (inComp.has(w) && !prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = ROOTS.flatMap((r) => (existsSync(join(root, r)) ? tsFiles(join(root, r)) : []));
  const graph = importGraph(files);
  let problems = 0;
  for (const comp of cycles(graph)) {
    problems++;
    const path = cyclePath(graph, comp).map((f) => relative(root, f));
    console.error(`import cycle (${comp.length} files): ${path.join(' → ')}`);
  }
  const parts = partGraph(graph);
  for (const comp of cycles(parts)) {
    const path = cyclePath(parts, comp);
    problems++;
    const edges = path.slice(1).map((to, i) => {
      const from = path[i];
      const [f, t] = [...graph].flatMap(([file, deps]) =>
        partOf(relative(root, file)) === from ? deps.filter((d) => partOf(relative(root, d)) === to).map((d) => [file, d]) : [],
      )[0];
      return `${relative(root, f)} imports ${relative(root, t)}`;
    });
    console.error(`import cycle between parts: ${path.join(' → ')} (${edges.join('; ')})`);
  }
  for (const file of files) {
    const rel = relative(root, file);
    if (!rel.startsWith('src/') || GENERATED.has(rel)) continue;
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    if (lines > MAX_LINES) {
      problems++;
      console.error(`${rel}: ${lines} lines (at most ${MAX_LINES}): split it by concern`);
    }
  }
  for (const file of files) {
    const rel = relative(root, file);
    if (!rel.startsWith('src/') || STATE_HOLDERS.some((d) => rel.startsWith(d)) || STATE_ENTRIES.has(rel)) continue;
    for (const [line, decl] of moduleLets(file, readFileSync(file, 'utf8'))) {
      problems++;
      console.error(
        `${rel}:${line}: module-level mutable state (${decl}): the library holds none; pass it as an argument or keep it in an object the caller owns`,
      );
    }
  }
  if (problems > 0) process.exit(1);
}
