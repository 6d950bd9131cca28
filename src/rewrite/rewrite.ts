/**
 * The rewriter: applies an edit set to the IR (tree rewrite) and, through the patcher, to the
 * original text. Both are deterministic (edits ordered by source position) and agree: the
 * patched text re-parses to the rewritten tree (checked by property tests).
 *
 * Before → after (insert_after(s, 0, "cacheinvalid_region", dst, shape), insert_after(s, 1, "fence")):
 *     pl.store(t, [0, 0], win)          pl.store(t, [0, 0], win)
 *     pld.system.notify(...)      →     pl.system.cacheinvalid(win, [1, N], [0, 0])
 *                                       pl.system.fence()
 *                                       pld.system.notify(...)
 *
 * Before → after (insert_barrier(loop, 0, "b0", tids) + replace_deps(submit, "b0")):
 *     for i in pl.range(8):             b0 = pl.system.task_dummy(deps=[tids])
 *         x = pl.submit(f, deps=[tids]) for i in pl.range(8):
 *                                           x = pl.submit(f, deps=[b0])
 */
import type {
  CallExpr, DictExpr, Expr, FunctionDef, Module, NameExpr, ScopeStmt, Span, Stmt, SubmitExpr, TensorType, TileType,
} from '../ir/nodes.js';
import { printStmt } from '../ir/print.js';
import { respell } from '../frontend/imports.js';
import type { NodeTable } from '../facts/extract.js';
import { DiagnosticError, errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { applySourceEdits, type SourceEdit } from './patch.js';
import type { EditSet, InsertAfterEdit } from './edits.js';

export interface RewriteResult {
  /** The rewritten module (the input module's tree, edited in place). */
  module: Module;
  /** The patched original text. */
  text: string;
  /** 1-based lines of the patched text holding inserted statements. */
  insertedLines: number[];
  /** Number of edits applied. */
  applied: number;
}

const opCallee = (name: string): CallExpr['callee'] => ({ kind: 'op', name, known: true });

/**
 * A located diagnostic for an edit the rules derived but the rewriter cannot apply (a user rule
 * file naming an unknown marker, or an id of the wrong kind): located at the node the edit names
 * when it has one.
 */
export function badEdit(table: NodeTable, source: SourceText, id: number, message: string): DiagnosticError {
  const e = table.get(id);
  const span = e && e.kind !== 'Block' && e.kind !== 'Exit' && 'span' in e ? e.span : undefined;
  const text = `the rules derived an edit the rewriter cannot apply: ${message}; check the rule deriving it (ptolog explain shows its proof).`;
  return new DiagnosticError([
    span ? errorAt(source, span.start, span.end, 'bad-edit', text) : { severity: 'error', code: 'bad-edit', path: source.path, message: text },
  ]);
}

/** Builds the IR of a marker statement (spans: zero-width at `at`). */
export function markerStmt(e: InsertAfterEdit, table: NodeTable, at: number, source: SourceText): Stmt {
  const span: Span = { start: at, end: at };
  const call = (name: string, args: Expr[]): Stmt => ({
    kind: 'ExprStmt',
    value: { kind: 'Call', callee: opCallee(name), args, kwargs: [], span },
    span,
  });
  switch (e.marker) {
    case 'fence':
      return call('system.fence', []);
    case 'cacheinvalid_all':
      return call('system.cacheinvalid', []);
    case 'cacheinvalid_region': {
      const dst = table.get(e.dst);
      const type = table.get(e.shape);
      if (dst?.kind !== 'Name' || !type || (type.kind !== 'TensorType' && type.kind !== 'TileType')) {
        throw badEdit(table, source, e.stmt, `insert_after(${e.stmt}, ${e.ord}, "cacheinvalid_region", ${e.dst}, ${e.shape}) needs a Name expression and a tensor type node`);
      }
      // The declared shape as written: its dimension expressions (`[1, N]`), or the name of a
      // list constant (`SHAPE`) when the type was written with one.
      const t = type as TensorType | TileType;
      const zeros: Expr[] = t.shape.map(() => ({ kind: 'Int', value: 0, span }));
      const shape: Expr = t.shapeExpr ? withSpan(t.shapeExpr, span) : { kind: 'List', elts: t.shape.map((d) => withSpan(d, span)), span };
      return call('system.cacheinvalid', [
        { kind: 'Name', id: (dst as NameExpr).id, span },
        shape,
        { kind: 'List', elts: zeros, span },
      ]);
    }
    default:
      throw badEdit(table, source, e.stmt, `insert_after names the marker "${String(e.marker)}"; the markers are cacheinvalid_region, cacheinvalid_all and fence`);
  }
}

/** A deep copy of an expression with every span set to `span`. */
function withSpan<T>(x: T, span: Span): T {
  return JSON.parse(JSON.stringify(x), (k, v: unknown) => (k === 'span' || k === 'depsSpan' ? (v === null ? null : span) : v)) as T;
}

/** Applies `edits` to the module's tree and text. */
export function rewrite(module: Module, table: NodeTable, edits: EditSet): RewriteResult {
  const source = module.source;
  const textEdits: SourceEdit[] = [];
  // Inserted text is written with the module's own names for pypto.language / .distributed.
  const spell = module.spell ?? { pl: 'pl', pld: 'pld' };
  const printed = (s: Stmt): string => respell(printStmt(s).trimEnd(), spell);
  const stmtOf = (id: number): Stmt => {
    const s = table.get(id);
    if (!s || !('kind' in s) || !isStmt(s)) throw badEdit(table, source, id, `an edit anchored at ${id}, which is not a statement`);
    return s as Stmt;
  };

  // insert_after: group per anchor, inner anchors before outer ones ending at the same place.
  const after = [...edits.insertAfter].sort((a, b) => {
    const sa = stmtOf(a.stmt).span;
    const sb = stmtOf(b.stmt).span;
    return sa.end - sb.end || sb.start - sa.start || a.stmt - b.stmt || a.ord - b.ord;
  });
  const insertsAt = new Map<number, Stmt[]>();
  for (const e of after) {
    const anchor = stmtOf(e.stmt);
    const m = markerStmt(e, table, anchor.span.end, source);
    let list = insertsAt.get(e.stmt);
    if (!list) insertsAt.set(e.stmt, (list = []));
    list.push(m);
    textEdits.push({ kind: 'insertAfter', anchor: anchor.span, lines: [printed(m)] });
  }

  // insert_barrier: before the loop, in ord order.
  const barriers = [...edits.insertBarrier].sort((a, b) => stmtOf(a.loop).span.start - stmtOf(b.loop).span.start || a.ord - b.ord);
  const insertsBefore = new Map<number, Stmt[]>();
  for (const e of barriers) {
    const loop = stmtOf(e.loop);
    const arr = table.get(e.array) as Expr | undefined;
    if (!arr || !isExpr(arr)) throw badEdit(table, source, e.loop, `insert_barrier names ${e.array}, which is not an expression`);
    const span: Span = { start: loop.span.start, end: loop.span.start };
    const stmt: Stmt = {
      kind: 'Assign',
      targets: [{ kind: 'Name', id: e.name, span }],
      tupleTarget: false,
      annotation: null,
      value: {
        kind: 'Call',
        callee: opCallee('system.task_dummy'),
        args: [],
        kwargs: [{ name: 'deps', value: { kind: 'List', elts: [withSpan(arr, span)], span }, span }],
        span,
      },
      span,
    };
    let list = insertsBefore.get(e.loop);
    if (!list) insertsBefore.set(e.loop, (list = []));
    list.push(stmt);
    textEdits.push({ kind: 'insertBefore', anchor: loop.span, lines: [printed(stmt)] });
  }

  // replace_deps: the Submit's / scope's deps list becomes [name].
  for (const e of [...edits.replaceDeps].sort((a, b) => a.node - b.node)) {
    const n = table.get(e.node) as SubmitExpr | ScopeStmt | undefined;
    if (!n || (n.kind !== 'Submit' && n.kind !== 'Scope') || !n.deps || !n.depsSpan) {
      throw badEdit(table, source, e.node, `replace_deps names ${e.node}, which is not a Submit or a scope with deps=`);
    }
    const span = n.depsSpan;
    n.deps = [{ kind: 'Name', id: e.name, span }];
    textEdits.push({ kind: 'replace', span, text: `[${e.name}]` });
  }

  // set_kwarg: add `key=value` to a call.
  for (const e of [...edits.setKwarg].sort((a, b) => a.call - b.call)) {
    const c = table.get(e.call) as CallExpr | undefined;
    if (c?.kind !== 'Call') throw badEdit(table, source, e.call, `set_kwarg names ${e.call}, which is not a call`);
    if (c.kwargs.some((k) => k.name === e.key)) {
      const k = c.kwargs.find((k) => k.name === e.key)!;
      throw new DiagnosticError([{
        severity: 'error', code: 'patch-conflict',
        message: `the rules ask to add ${e.key}= to a call that already has one.`,
        location: { source, start: k.span.start, end: k.span.end },
      }]);
    }
    const value = parseKwValue(e.value, c.span.end);
    c.kwargs.push({ name: e.key, value, span: { start: c.span.end, end: c.span.end } });
    textEdits.push({ kind: 'addKeyword', call: c.span, name: e.key, value: respell(e.value, spell) });
  }

  // remove_func_attr: drop an entry of pl.func_attr({...}).
  for (const e of edits.removeFuncAttr) {
    const f = table.get(e.func) as FunctionDef | undefined;
    if (f?.kind !== 'Function' || !f.attrs) continue;
    textEdits.push(...removeAttrEntry(f, f.attrs, e.key, source.text));
  }

  // Tree: splice inserted statements into their blocks.
  spliceBlocks(table, insertsAt, insertsBefore);

  const patched = applySourceEdits(source, textEdits);
  const applied = edits.insertAfter.length + edits.insertBarrier.length + edits.replaceDeps.length + edits.setKwarg.length + edits.removeFuncAttr.length;
  return { module, text: patched.text, insertedLines: patched.insertedLines, applied };
}

function isExpr(n: { kind: string }): boolean {
  return ['Name', 'Int', 'Float', 'Bool', 'None', 'Str', 'List', 'Tuple', 'Dict', 'Attr', 'Enum', 'Subscript', 'Unary', 'Binary', 'Call', 'Submit'].includes(n.kind);
}

function isStmt(n: { kind: string }): boolean {
  return ['Assign', 'ExprStmt', 'Return', 'Pass', 'Break', 'Continue', 'If', 'While', 'For', 'Scope'].includes(n.kind);
}

/** Reads an enum keyword value written as DSL text (`pl.CachePolicy.BYPASS`) into IR. */
function parseKwValue(text: string, at: number): Expr {
  const span = { start: at, end: at };
  const m = /^(pl|pld)\.(\w+)\.(\w+)$/.exec(text);
  if (m) return { kind: 'Enum', module: m[1] as 'pl' | 'pld', enum: m[2]!, member: m[3]!, span };
  if (/^-?\d+$/.test(text)) return { kind: 'Int', value: Number(text), span };
  return { kind: 'Name', id: text, span };
}

function removeAttrEntry(f: FunctionDef, attrs: DictExpr, key: string, text: string): SourceEdit[] {
  const idx = attrs.entries.findIndex((en) => en.key.kind === 'Str' && en.key.value === key);
  if (idx < 0) return [];
  const entry = attrs.entries[idx]!;
  attrs.entries.splice(idx, 1);
  if (attrs.entries.length === 0) {
    // Remove the whole `pl.func_attr({...})` line.
    f.attrs = null;
    const lineStart = text.lastIndexOf('\n', attrs.span.start - 1) + 1;
    let lineEnd = text.indexOf('\n', attrs.span.end);
    lineEnd = lineEnd < 0 ? text.length : lineEnd + 1;
    return [{ kind: 'deleteRange', span: { start: lineStart, end: lineEnd } }];
  }
  // Remove `key: value` and the comma that separates it from a neighbour.
  let start = entry.key.span.start;
  let end = entry.value.span.end;
  const after = /^\s*,\s*/.exec(text.slice(end));
  if (after && idx < attrs.entries.length) end += after[0].length;
  else {
    const before = /,\s*$/.exec(text.slice(attrs.span.start, start));
    if (before) start -= before[0].length;
  }
  return [{ kind: 'deleteRange', span: { start, end } }];
}

function spliceBlocks(table: NodeTable, after: Map<number, Stmt[]>, before: Map<number, Stmt[]>): void {
  const blocks = new Set<number>();
  for (const id of [...after.keys(), ...before.keys()]) blocks.add(table.blockOfStmt(id)!);
  for (const bk of blocks) {
    const block = table.get(bk);
    if (block?.kind !== 'Block') continue;
    const out: Stmt[] = [];
    for (const s of block.stmts) {
      const id = table.idOf(s)!;
      out.push(...(before.get(id) ?? []), s, ...(after.get(id) ?? []));
    }
    // (no spread: blocks may hold a million statements)
    block.stmts.length = 0;
    for (const s of out) block.stmts.push(s);
  }
}

