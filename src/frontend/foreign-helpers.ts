/**
 * The bodies of inline helpers imported from the project's other modules, read into the calling
 * module so that its run judges them as PyPTO's InlineFunctions leaves them: expanded into each
 * caller (its kind, its windows), not only on their own. Each helper file becomes one `imported`
 * program whose spans are offsets into the module's combined text (the module's own text, then
 * each helper file's; Module.parts says which is which), so findings and edits located in a
 * helper land in the helper's file.
 */
import type { ConstValue, FunctionDef, Module, ModulePart, Program, Stmt } from '../ir/nodes.js';
import { walkBody } from '../ir/visit.js';
import { SourceText } from '../report/source.js';
import type { ModuleReader } from './project-imports.js';

/** How a helper module is parsed (parseModuleIsolated, its imports followed as body-less stubs only). */
export type ParseHelperModule = (text: string, path: string) => Module;

/** What foreignHelpers adds to the calling module. */
export interface ForeignHelpers {
  /** One `imported` program per helper file read (its functions: the helpers and what they call there). */
  programs: Program[];
  /** The local names whose body could not be read: body-less stand-ins (no opaque write). */
  stubs: string[];
  /** Of those, the ones whose file has errors where the helper is (local name → the file). */
  unread: Map<string, string>;
  /** The module's parts (its own file first) and combined source; null when no helper body was read. */
  parts: ModulePart[] | null;
  source: SourceText | null;
}

/**
 * Reads the bodies of the imported helpers `wanted` (local name → file and name) whose local name
 * the module does not define itself (`taken`): each helper, renamed to its local name, with the
 * inline functions of its file it calls (transitively, under their own names). A helper reached
 * under two local names is read once (the second name is a stand-in). `own` is the module's own
 * source and spelling.
 */
export function foreignHelpers(
  wanted: ReadonlyMap<string, { path: string; name: string; at?: unknown }>,
  taken: ReadonlySet<string>,
  own: { source: SourceText; spell: { pl: string; pld: string } },
  reader: ModuleReader,
  parse: ParseHelperModule,
): ForeignHelpers {
  const byPath = new Map<string, [string, string][]>();
  for (const [local, h] of wanted) {
    if (taken.has(local)) continue;
    if (h.path === own.source.path) continue;
    const list = byPath.get(h.path) ?? [];
    list.push([local, h.name]);
    byPath.set(h.path, list);
  }
  const out: ForeignHelpers = { programs: [], stubs: [], unread: new Map(), parts: null, source: null };
  const parts: ModulePart[] = [{ source: own.source, base: 0, spell: own.spell }];
  let combined = withNewline(own.source.text);
  const names = new Set(taken);
  for (const [path, locals] of byPath) {
    const text = reader.read(path);
    if (typeof text !== 'string') {
      out.stubs.push(...locals.map(([l]) => l));
      continue;
    }
    const m = parse(text, path);
    const inline = new Map<string, FunctionDef>();
    for (const p of m.programs) for (const f of p.functions) if (f.funcKind === 'Inline' && !inline.has(f.name)) inline.set(f.name, f);
    const read = new Set<string>();
    const functions: FunctionDef[] = [];
    for (const [local, name] of locals) {
      const f = inline.get(name);
      if (!f || read.has(name) || names.has(local)) {
        if (!names.has(local)) out.stubs.push(local);
        // (Its definition did not read: the file's own run reports the errors.)
        if (!f && (m.problems ?? []).some((d) => d.severity === 'error')) out.unread.set(local, path);
        names.add(local);
        continue;
      }
      read.add(name);
      names.add(local);
      functions.push(local === name ? f : { ...f, name: local });
    }
    // The inline functions of that file the helpers call, under their own names.
    for (let i = 0; i < functions.length; i++) {
      for (const callee of calledNames(functions[i]!.body)) {
        const g = inline.get(callee);
        if (!g || read.has(callee) || names.has(callee)) continue;
        read.add(callee);
        names.add(callee);
        functions.push(g);
      }
    }
    if (functions.length === 0) continue;
    const base = combined.length;
    shiftSpans(functions, base);
    combined += withNewline(text);
    parts.push({ source: new SourceText(path, text), base, spell: m.spell ?? { pl: 'pl', pld: 'pld' } });
    const program: Program = {
      kind: 'Program',
      name: 'imported',
      jit: true,
      imported: true,
      functions,
      start: base,
      end: base + text.length,
    };
    program.constants = m.constants as ReadonlyMap<string, ConstValue>;
    out.programs.push(program);
  }
  if (parts.length > 1) {
    out.parts = parts;
    out.source = new SourceText(own.source.path, combined);
  }
  return out;
}

/** `text` ending with a line break (a part's text never runs into the next one's first line). */
function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') || text.endsWith('\r') ? text : `${text}\n`;
}

/** The names of the functions the statements call as `name(...)` / `self.name(...)`. */
function calledNames(body: readonly Stmt[]): Set<string> {
  const out = new Set<string>();
  walkBody(body, {
    expr: (e) => {
      if (e.kind === 'Call' && e.callee.kind === 'self') out.add(e.callee.name);
    },
  });
  return out;
}

/** Offset fields of IR nodes (nodes.ts): shifted into the module's combined text. */
const OFFSETS = ['start', 'end', 'depsStart', 'depsEnd'] as const;

/** Adds `by` to every offset of the functions' nodes (each node once, also when shared). */
function shiftSpans(functions: readonly FunctionDef[], by: number): void {
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const o = v as Record<string, unknown>;
    for (const k of OFFSETS) if (typeof o[k] === 'number') o[k] = (o[k] as number) + by;
    for (const [k, x] of Object.entries(o)) if (typeof x === 'object' && k !== 'source') visit(x);
  };
  for (const f of functions) visit(f);
}
