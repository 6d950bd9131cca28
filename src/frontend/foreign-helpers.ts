/**
 * The bodies of inline helpers imported from the project's other modules, read into the calling
 * module so that its run judges them as PyPTO's InlineFunctions leaves them: expanded into each
 * caller (its kind, its windows), not only on their own. Imports are followed transitively (a
 * helper's module importing helpers of its own, at any depth up to MAX_DEPTH imports and
 * MAX_MODULES modules): each module is read and parsed once per run, each helper read once
 * (a diamond or an import cycle reaches it again under the same name). Each helper file becomes
 * one `imported` program whose spans are offsets into the module's combined text (the module's
 * own text, then each helper file's; Module.parts says which is which), so findings and edits
 * located in a helper land in the helper's file. A helper that cannot be read (unresolvable, an
 * error in its file, a circular import Python refuses, a limit reached) is a body-less stand-in
 * with a located `unresolved-import` note in the file that imports it.
 */

import { dotted } from '../ir/dotted.js';
import type { ConstValue, FunctionDef, Module, ModulePart, Program, Stmt } from '../ir/nodes.js';
import { walkBody } from '../ir/visit.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { type ImportedHelpers, type ModuleReader, type ProjectImport, unfollowedNote } from './project-imports.js';

/** A helper module as parsed (its own imports resolved, their helpers body-less stand-ins). */
export interface HelperModule {
  module: Module;
  /** The module's imported helpers (null when its imports were not followed). */
  imported: ImportedHelpers | null;
}

/** How a helper module is parsed (its imports resolved as Python resolves them from the run's file). */
export type ParseHelperModule = (text: string, path: string) => HelperModule;

/** What foreignHelpers adds to the calling module. */
export interface ForeignHelpers {
  /** One `imported` program per helper file read (its functions: the helpers and what they call). */
  programs: Program[];
  /** The names whose body could not be read: body-less stand-ins (no opaque write). */
  stubs: string[];
  /** Of the module's own imports, the local names whose file has errors where the helper is (local name → the file). */
  unread: Map<string, string>;
  /** Located notes in the helper files (imports their helpers call that could not be followed). */
  notes: Diagnostic[];
  /** The module's parts (its own file first) and combined source; null when no helper body was read. */
  parts: ModulePart[] | null;
  source: SourceText | null;
}

/** How many imports deep helpers are followed from the run's file (its own imports are depth 1). */
export const MAX_DEPTH = 16;
/** How many helper modules one run reads at most. */
export const MAX_MODULES = 200;

/** A helper to read: function `name` of file `path`, under the module's name `internal`. */
interface Ref {
  path: string;
  name: string;
  internal: string;
  depth: number;
  /** The import that binds it, in the module `from` (null for the run's own imports and same-file calls). */
  at: { from: HelperModule; im: ProjectImport } | null;
  /** The modules being initialized when it is imported (Python's import chain): each with the offset of its import leading on. */
  chain: { path: string; importAt: number }[];
}

/** A helper file read: its parse, its definitions' offsets (before any shift), its part once a body is taken. */
interface Loaded {
  hm: HelperModule;
  inline: Map<string, FunctionDef>;
  defAt: Map<string, number>;
  part: ModulePart | null;
  functions: FunctionDef[];
  /** Nodes already shifted and callees already renamed (a node shared by two functions counts once). */
  seen: Set<object>;
}

/**
 * Reads the bodies of the imported helpers `wanted` (local name → file and name) whose local name
 * the module does not define itself (`taken`), and transitively the helpers they call (same-file
 * inline functions and helpers imported there), each once. The module's own imports keep their
 * local names; the others keep theirs unless taken (then `module.name`, numbered if needed), and
 * the calls in the helpers' bodies are renamed to match. A helper reached under two local names
 * of the module is read once (the second name is a stand-in). `own` is the module's own source
 * and spelling.
 */
export function foreignHelpers(
  wanted: ReadonlyMap<string, { path: string; name: string; at?: ProjectImport }>,
  taken: ReadonlySet<string>,
  own: { source: SourceText; spell: { pl: string; pld: string } },
  reader: ModuleReader,
  parse: ParseHelperModule,
): ForeignHelpers {
  const out: ForeignHelpers = { programs: [], stubs: [], unread: new Map(), notes: [], parts: null, source: null };
  const parts: ModulePart[] = [{ source: own.source, base: 0, spell: own.spell }];
  let combined = withNewline(own.source.text);
  const used = new Set([...taken, ...wanted.keys()]);
  const internalOf = new Map<string, string>(); // `path\0name` → the name in the module
  const loaded = new Map<string, Loaded | null>(); // null: not readable as text
  const noted = new Set<string>();
  const queue: Ref[] = [];
  const note = (at: Ref['at'], key: string, message: string): void => {
    if (!at || noted.has(key)) return;
    noted.add(key);
    out.notes.push({
      severity: 'note',
      code: 'unresolved-import',
      message,
      location: { source: at.from.module.source, start: at.im.start, end: at.im.end },
    });
  };
  const load = (path: string): Loaded | null | 'limit' => {
    const got = loaded.get(path);
    if (got !== undefined) return got;
    if (loaded.size >= MAX_MODULES) return 'limit';
    const text = reader.read(path);
    if (typeof text !== 'string') {
      loaded.set(path, null);
      return null;
    }
    const hm = parse(text, path);
    const inline = new Map<string, FunctionDef>();
    for (const p of hm.module.programs)
      for (const f of p.functions) if (f.funcKind === 'Inline' && !p.imported && !inline.has(f.name)) inline.set(f.name, f);
    const defAt = new Map([...inline].map(([n, f]) => [n, f.start]));
    const l: Loaded = { hm, inline, defAt, part: null, functions: [], seen: new Set() };
    loaded.set(path, l);
    return l;
  };
  const fresh = (name: string, path: string): string => {
    if (!used.has(name)) return name;
    const stem = (path.split(/[\\/]/).pop() ?? '').replace(/\.py$/, '');
    let n = `${stem}.${name}`;
    for (let k = 2; used.has(n); k++) n = `${stem}.${name}_${k}`;
    return n;
  };

  for (const [local, h] of wanted) {
    if (taken.has(local) || h.path === own.source.path) continue;
    const key = `${h.path}\u0000${h.name}`;
    if (internalOf.has(key)) {
      out.stubs.push(local);
      continue;
    }
    internalOf.set(key, local);
    queue.push({ path: h.path, name: h.name, internal: local, depth: 1, at: null, chain: [] });
  }

  for (let q = 0; q < queue.length; q++) {
    const ref = queue[q]!;
    const got = load(ref.path);
    if (got === 'limit') {
      out.stubs.push(ref.internal);
      note(
        ref.at,
        `limit\u0000${ref.path}`,
        `an inline helper calls '${ref.name}' of ${ref.path}, which is not read: ptolog reads at most ${MAX_MODULES} helper modules in one run; the call is inlined, but its body is judged only in its own file's run`,
      );
      continue;
    }
    const f = got?.inline.get(ref.name);
    if (!got || !f) {
      out.stubs.push(ref.internal);
      const errors = got !== null && got !== undefined && (got.hm.module.problems ?? []).some((d) => d.severity === 'error');
      // (The run's own imports: a note where its kernel calls the helper, unreadHelperCalls.)
      if (errors && !ref.at) out.unread.set(ref.internal, ref.path);
      else
        note(
          ref.at,
          `unread\u0000${ref.path}\u0000${ref.name}`,
          `an inline helper calls '${ref.name}', an inline helper of ${ref.path} whose definition ptolog cannot read${errors ? ' (that file has errors: audit it)' : ''}: the call is inlined, but the helper's body is not judged here`,
        );
      continue;
    }
    // Its part of the module's combined text, once.
    if (!got.part) {
      const text = got.hm.module.source.text;
      got.part = { source: new SourceText(ref.path, text), base: combined.length, spell: got.hm.module.spell ?? { pl: 'pl', pld: 'pld' } };
      combined += withNewline(text);
      parts.push(got.part);
    }
    const fn = ref.internal === f.name ? f : { ...f, name: ref.internal };
    got.functions.push(fn);
    // What it calls: inline functions of its file, helpers its file imports (read next).
    const renames = new Map<string, string>();
    const imported = got.hm.imported;
    for (const callee of calledNames(f.body)) {
      if (renames.has(callee)) continue;
      let target: { path: string; name: string; at: Ref['at']; depth: number; chain: Ref['chain'] } | null = null;
      if (got.inline.has(callee)) target = { path: ref.path, name: callee, at: null, depth: ref.depth, chain: ref.chain };
      else {
        const h = imported?.helpers.get(callee);
        if (h?.at) {
          const at = { from: got.hm, im: h.at };
          // Python's import chain: a module-level import nests this module's initialization in the chain; one in a function runs at call time.
          const chain = topLevel(got.hm.module.source.text, h.at.start) ? [...ref.chain, { path: ref.path, importAt: h.at.start }] : [];
          target = { path: h.path, name: h.name, at, depth: ref.depth + 1, chain };
        }
      }
      if (!target) continue;
      const key = `${target.path}\u0000${target.name}`;
      let internal = internalOf.get(key);
      if (internal === undefined) {
        internal = fresh(target.name, target.path);
        used.add(internal);
        internalOf.set(key, internal);
        const refused = target.at ? circularRefusal(target.at.im, target, loaded) : null;
        if (target.path === own.source.path) {
          // (A helper importing from the run's file: Python reads that file again as a module of its own.)
          out.stubs.push(internal);
        } else if (refused) {
          out.stubs.push(internal);
          note(target.at, `cycle\u0000${target.at!.im.start}\u0000${callee}`, refused);
        } else if (target.depth > MAX_DEPTH) {
          out.stubs.push(internal);
          note(
            target.at,
            `depth\u0000${target.at!.im.start}\u0000${callee}`,
            `an inline helper calls '${callee}' of ${target.path}, which is not read: ptolog follows imported helpers at most ${MAX_DEPTH} imports deep from the file it audits; the call is inlined, but its body is judged only in its own file's run`,
          );
        } else queue.push({ path: target.path, name: target.name, internal, depth: target.depth, at: target.at, chain: target.chain });
      }
      renames.set(callee, internal);
    }
    // Imports it calls that cannot be followed: said in its file.
    if (imported && imported.unfollowed.size > 0) {
      walkBody(f.body, {
        expr: (e) => {
          if (e.kind !== 'Call' || e.callee.kind !== 'other') return;
          const d = dotted(e.callee.expr);
          const u = d === null ? undefined : imported.unfollowed.get(d.split('.')[0]!);
          const key = `unfollowed\u0000${ref.path}\u0000${u?.at.start}\u0000${d}`;
          if (!u || d === null || noted.has(key)) return;
          noted.add(key);
          out.notes.push(unfollowedNote(got.hm.module.source, u, d, f.name));
        },
      });
    }
    renameCalls(fn.body, renames, got.seen);
    shiftSpans(fn, got.part.base, got.seen);
  }

  const read = [...loaded.values()].filter((l): l is Loaded => l !== null && l.part !== null && l.functions.length > 0);
  for (const l of read.sort((a, b) => a.part!.base - b.part!.base)) {
    const part = l.part!;
    const program: Program = {
      kind: 'Program',
      name: 'imported',
      jit: true,
      imported: true,
      functions: l.functions,
      start: part.base,
      end: part.base + part.source.text.length,
    };
    program.constants = l.hm.module.constants as ReadonlyMap<string, ConstValue>;
    out.programs.push(program);
  }
  if (parts.length > 1) {
    out.parts = parts;
    out.source = new SourceText(own.source.path, combined);
  }
  return out;
}

/** Whether the statement at offset `at` of `text` starts its line (a module-level statement). */
function topLevel(text: string, at: number): boolean {
  return at === 0 || text[at - 1] === '\n' || text[at - 1] === '\r';
}

/**
 * Python's refusal of `from X import name` at module level while X is still being initialized
 * (X imported the module, directly or through others, before defining `name`): the note's text,
 * or null when Python binds the name (X defined it before the import leading here, or the
 * import runs at call time).
 */
function circularRefusal(
  im: ProjectImport,
  target: { path: string; name: string; chain: { path: string; importAt: number }[] },
  loaded: ReadonlyMap<string, Loaded | null>,
): string | null {
  if (im.member === null || target.chain.length === 0) return null;
  const pending = target.chain.find((c) => c.path === target.path);
  if (!pending) return null;
  const defined = loaded.get(target.path)?.defAt.get(target.name);
  if (defined === undefined || defined < pending.importAt) return null;
  const mod = `${'.'.repeat(im.level)}${im.module}`;
  const text = loaded.get(target.path)!.hm.module.source;
  const line = text.position(pending.importAt).line;
  return `'${im.member}' cannot be imported from '${mod}' here: that module (${target.path}) is still being initialized — its import at line ${line} leads to this module — and defines '${target.name}' only after it, so Python raises ImportError (a circular import); the call is inlined, but the helper's body is not judged (move the import below the definition, or import the module and call it by attribute)`;
}

/** `text` ending with a line break (a part's text never runs into the next one's first line). */
function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') || text.endsWith('\r') ? text : `${text}\n`;
}

/** The names of the functions the statements call as `name(...)` / `self.name(...)`, in order. */
function calledNames(body: readonly Stmt[]): Set<string> {
  const out = new Set<string>();
  walkBody(body, {
    expr: (e) => {
      if (e.kind === 'Call' && e.callee.kind === 'self') out.add(e.callee.name);
    },
  });
  return out;
}

/** Renames the calls `name(...)` of the statements by `renames` (each callee once: `seen`). */
function renameCalls(body: readonly Stmt[], renames: ReadonlyMap<string, string>, seen: Set<object>): void {
  walkBody(body, {
    expr: (e) => {
      if (e.kind !== 'Call' || e.callee.kind !== 'self' || seen.has(e.callee)) return;
      seen.add(e.callee);
      const to = renames.get(e.callee.name);
      if (to !== undefined) e.callee.name = to;
    },
  });
}

/** Offset fields of IR nodes (nodes.ts): shifted into the module's combined text. */
const OFFSETS = ['start', 'end', 'depsStart', 'depsEnd'] as const;

/** Adds `by` to every offset of the function's nodes (each node once, also when shared: `seen`). */
function shiftSpans(f: FunctionDef, by: number, seen: Set<object>): void {
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
  visit(f);
}
