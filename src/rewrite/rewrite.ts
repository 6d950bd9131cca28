/**
 * The rewriter: applies an edit set to the IR (tree rewrite) and, through the patcher, to the
 * original text. Both are deterministic (edits ordered by source position) and agree: the
 * patched text re-parses to the rewritten tree (checked by property tests). It knows no op by
 * name: an inserted call is the template the rules derived (rules/edits.dl insert_call,
 * call_arg, call_kwarg). Every edit is checked first (`planEdits`): one the rewriter cannot
 * apply, or rule-supplied text that is not the expression or name it claims to be, is a
 * located `bad-edit` error and nothing is written.
 *
 * Before → after (insert_call(s, "after", 0, "system.cacheinvalid", "") with call_arg
 * (expr win, shape T, zeros T), insert_call(s, "after", 1, "system.fence", "")):
 *     pl.store(t, [0, 0], win)          pl.store(t, [0, 0], win)
 *     pld.system.notify(...)      →     pl.system.cacheinvalid(win, [1, N], [0, 0])
 *                                       pl.system.fence()
 *                                       pld.system.notify(...)
 *
 * Before → after (insert_call(loop, "before", 0, "system.task_dummy", "b0") with call_kwarg
 * deps = list tids, + replace_deps(submit, "b0")):
 *     for i in pl.range(8):             b0 = pl.system.task_dummy(deps=[tids])
 *         x = pl.submit(f, deps=[tids]) for i in pl.range(8):
 *                                           x = pl.submit(f, deps=[b0])
 */

import type { NodeTable } from '../facts/extract.js';
import { newlineAt } from '../frontend/chars.js';
import { isIdentifier, parseExprText } from '../frontend/expr-text.js';
import { respell } from '../frontend/imports.js';
import { skipString } from '../frontend/scan.js';
import type { CallExpr, Expr, FunctionDef, Keyword, Module, ScopeStmt, Span, Stmt, SubmitExpr } from '../ir/nodes.js';
import { printStmt } from '../ir/print.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { IntColumn } from './columns.js';
import { type EditSet, EditTable } from './edits.js';
import { removeFuncAttrs } from './func-attr.js';
import { badEditDiagnostic, callTuple, insertedStmt, isExpr, type Spell, withSpan } from './inserted-call.js';
import { newlineStyle, patchSource, SourceEditList } from './patch.js';

export { badEdit, insertedStmt } from './inserted-call.js';

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

/**
 * The insert_call edits checked and built, as columns: planned insertion k is call `call[k]` of
 * the edit table, anchored at the statement [start[k], end[k]), writing `line[k]` (its printed
 * line; '' when only checked) and, for a tree rewrite, inserting `stmt[k]`.
 */
interface PlannedInserts {
  call: IntColumn;
  start: IntColumn;
  end: IntColumn;
  line: string[];
  stmt: Stmt[];
}

/**
 * The replace_deps edits checked, as columns: deps list k, at [start[k], end[k]) in the text,
 * becomes `[name[k]]`; for a tree rewrite `node[k]` is its Submit or scope (else empty).
 */
interface PlannedDeps {
  start: IntColumn;
  end: IntColumn;
  name: string[];
  node: Array<SubmitExpr | ScopeStmt>;
}

/** How many different inserted lines planning keeps one copy of (see planEdits). */
const LINES_KEPT = 4096;

/**
 * What planning keeps of each inserted statement: `tree` the statement and its line, `text` its
 * line alone, `check` nothing (the edits are only checked).
 */
export type PlanMode = 'tree' | 'text' | 'check';

/** Edits checked and built, ready to apply (nothing of the module changed yet). */
interface Plan {
  /** The edits as columns (the inserted calls are read from it). */
  edits: EditTable;
  inserts: PlannedInserts;
  deps: PlannedDeps;
  addKw: Array<{ call: CallExpr; key: string; value: Expr; text: string }>;
  replaceKw: Array<{ kw: Keyword; value: Expr; text: string }>;
  attrs: Array<{ func: FunctionDef; key: string }>;
  /** hoist_call edits: the statement's span, the expression hoisted, the line and statement inserted. */
  hoists: Array<{ start: number; end: number; stmt: number; expr: Expr; name: string; line: string; inserted: Stmt }>;
}

/**
 * Checks every edit of the set and builds what it inserts, before anything is changed: the
 * anchors are statements, the templates well-formed, rule-supplied text parses as the
 * expression or name it claims to be. All problems are reported together (located `bad-edit`
 * / `patch-conflict` errors, DiagnosticError); the module is untouched then.
 */
export function planEdits(
  table: NodeTable,
  source: SourceText,
  editSet: EditSet,
  mode: PlanMode = 'tree',
  spell: Spell = { pl: 'pl', pld: 'pld' },
): Plan {
  const edits = EditTable.of(editSet);
  const problems: Diagnostic[] = [];
  // Inserted text is written with the module's own names for pypto.language / .distributed;
  // identical lines (the same template at many places) are kept once. (Only the first
  // LINES_KEPT different lines are remembered: lines that differ everywhere, a name bound in
  // each, would only fill the map.)
  const lines = new Map<string, string>();
  const printed = (st: Stmt): string => {
    const l = respell(printStmt(st).trimEnd(), spell);
    const had = lines.get(l);
    if (had !== undefined) return had;
    if (lines.size < LINES_KEPT) lines.set(l, l);
    return l;
  };
  const bad = (id: number, message: string): void => {
    problems.push(badEditDiagnostic(table, source, id, message));
  };
  const n = edits.calls.count;
  const plan: Plan = {
    edits,
    inserts: { call: new IntColumn(n), start: new IntColumn(n), end: new IntColumn(n), line: [], stmt: [] },
    deps: { start: new IntColumn(edits.deps.name.length), end: new IntColumn(edits.deps.name.length), name: [], node: [] },
    addKw: [],
    replaceKw: [],
    attrs: [],
    hoists: [],
  };
  for (const b of edits.bad) bad(b.node, b.message);
  for (const o of edits.orphanArgs) bad(o.stmt, `${o.what} at (${o.stmt}, "${o.place}", ${o.seq}) has no insert_call there`);
  const calls = edits.calls;
  const ins = plan.inserts;
  for (let c = 0; c < calls.count; c++) {
    // (Each call is an object only while it is checked and built.)
    const e = calls.edit(c);
    const anchor = table.get(e.stmt);
    // (A table that keeps some nodes holds only where an anchor is: see NodeTable `keep`.)
    if (!anchor || !isStmt(anchor.kind === 'Located' ? { kind: anchor.of } : anchor)) {
      bad(e.stmt, `${callTuple(e)} is anchored at ${e.stmt}, which is not a statement`);
      continue;
    }
    const s = anchor as Span;
    const built = insertedStmt(e, table, e.place === 'before' ? s.start : s.end);
    if (Array.isArray(built)) {
      for (const m of built) bad(e.stmt, m);
      continue;
    }
    ins.call.push(c);
    ins.start.push(s.start);
    ins.end.push(s.end);
    ins.line.push(mode === 'check' ? '' : printed(built));
    if (mode === 'tree') ins.stmt.push(built);
  }
  const deps = edits.deps;
  for (let i = 0; i < deps.name.length; i++) {
    const id = deps.node.at(i);
    const name = deps.name[i]!;
    const n = table.get(id) as SubmitExpr | ScopeStmt | undefined;
    if (!n || (n.kind !== 'Submit' && n.kind !== 'Scope') || !n.deps || n.depsStart < 0)
      bad(id, `replace_deps names ${id}, which is not a Submit or a scope with deps=`);
    else if (!isIdentifier(name)) bad(id, `replace_deps(${id}, ${JSON.stringify(name)}): the name is not a Python name`);
    else {
      plan.deps.start.push(n.depsStart);
      plan.deps.end.push(n.depsEnd);
      plan.deps.name.push(name);
      if (mode === 'tree') plan.deps.node.push(n);
    }
  }
  const kwValue = (rel: string, call: number, key: string, value: string, at: number): Expr | undefined => {
    let ok = true;
    if (!isIdentifier(key)) {
      bad(call, `${rel}(${call}, ${JSON.stringify(key)}, ...): the keyword is not a Python name`);
      ok = false;
    }
    const r = parseExprText(value, at);
    if ('error' in r) {
      bad(call, `${rel}(${call}, ${JSON.stringify(key)}, ${JSON.stringify(value)}): the value is not a DSL expression: ${r.error}`);
      return undefined;
    }
    return ok ? r.expr : undefined;
  };
  const callOf = (rel: string, id: number): CallExpr | undefined => {
    const c = table.get(id) as CallExpr | undefined;
    if (c?.kind === 'Call') return c;
    bad(id, `${rel} names ${id}, which is not a call`);
    return undefined;
  };
  for (const e of edits.setKwarg) {
    const c = callOf('set_kwarg', e.call);
    if (!c) continue;
    const value = kwValue('set_kwarg', e.call, e.key, e.value, c.end);
    const had = c.kwargs.find((k) => k.name === e.key);
    if (had) {
      problems.push({
        severity: 'error',
        code: 'patch-conflict',
        message: `the rules ask to add ${e.key}= to a call that already has one.`,
        location: { source, start: had.start, end: had.end },
      });
    } else if (value) plan.addKw.push({ call: c, key: e.key, value, text: e.value });
  }
  for (const e of edits.replaceKwarg) {
    const c = callOf('replace_kwarg', e.call);
    if (!c) continue;
    const kw = c.kwargs.find((k) => k.name === e.key);
    const value = kwValue('replace_kwarg', e.call, e.key, e.value, kw?.value.start ?? c.end);
    if (!kw) bad(e.call, `replace_kwarg(${e.call}, ${JSON.stringify(e.key)}, ...): the call has no keyword ${e.key}=`);
    else if (value) plan.replaceKw.push({ kw, value, text: e.value });
  }
  for (const e of edits.removeFuncAttr) {
    const f = table.get(e.func) as FunctionDef | undefined;
    if (f?.kind !== 'Function') bad(e.func, `remove_func_attr names ${e.func}, which is not a function`);
    else plan.attrs.push({ func: f, key: e.key });
  }
  const hoisted = new Set<number>();
  for (const e of edits.hoist) {
    const anchor = table.get(e.stmt);
    const x = table.get(e.expr);
    const where = `hoist_call(${e.stmt}, ${e.expr}, ${JSON.stringify(e.name)})`;
    if (!anchor || !isStmt(anchor.kind === 'Located' ? { kind: anchor.of } : anchor)) bad(e.stmt, `${where}: ${e.stmt} is not a statement`);
    else if (!x || !isExpr(x) || !('start' in x)) bad(e.stmt, `${where}: ${e.expr} is not an expression`);
    else if (!isIdentifier(e.name)) bad(e.expr, `${where}: the name is not a Python name`);
    else if (hoisted.has(e.expr)) bad(e.expr, `${where}: the expression is hoisted twice`);
    else {
      const s = anchor as Span;
      const ex = x as Expr;
      if (ex.start < s.start || ex.end > s.end) {
        bad(e.expr, `${where}: the expression is not in the statement`);
        continue;
      }
      hoisted.add(e.expr);
      const at = s.start;
      const inserted: Stmt = {
        kind: 'Assign',
        targets: [{ kind: 'Name', id: e.name, start: at, end: at }],
        tupleTarget: false,
        annotation: null,
        value: withSpan(ex, { start: at, end: at }),
        start: at,
        end: at,
      };
      // The call as written when it is on one line, else as printed.
      const written = source.text.slice(ex.start, ex.end);
      const line = /[\r\n]/.test(written) ? printed(inserted) : `${e.name} = ${written}`;
      plan.hoists.push({ start: s.start, end: s.end, stmt: e.stmt, expr: ex, name: e.name, line: mode === 'check' ? '' : line, inserted });
    }
  }
  if (problems.length > 0) {
    throw new DiagnosticError(problems.sort((a, b) => (a.location?.start ?? -1) - (b.location?.start ?? -1)));
  }
  return plan;
}

/** Applies `edits` to the module's tree and text (all of them checked first, see planEdits). */
export function rewrite(module: Module, table: NodeTable, edits: EditSet): RewriteResult {
  const { source, textEdits, applied } = applyEdits(module, table, edits, true);
  const patched = patchSource(source, textEdits);
  return { module, text: patched.text, insertedLines: patched.insertedLines, applied };
}

/**
 * As `rewrite`, for a caller that uses only the patched text: the same checks and the same text,
 * without splicing the inserted statements into the tree (none is kept once printed). The
 * module's tree is not to be used afterwards (it may be left partly edited).
 */
export function rewriteText(module: Module, table: NodeTable, edits: EditSet): Omit<RewriteResult, 'module'> {
  const { source, textEdits, applied } = textEditsOf(module, table, edits);
  const patched = patchSource(source, textEdits);
  return { text: patched.text, insertedLines: patched.insertedLines, applied };
}

/**
 * The text changes `rewriteText` patches the module's source with (checked as `rewrite` checks
 * them) and how many edits they apply: a caller can let go of the module, its table and the edits
 * before the text is patched (1M-statement orchestration apply: the patched text is built where
 * they were).
 */
export function textEditsOf(
  module: Module,
  table: NodeTable,
  edits: EditSet,
): { source: SourceText; textEdits: SourceEditList; applied: number } {
  return applyEdits(module, table, edits, false);
}

/** The work of `rewrite` up to the text patch; the tree is edited only when `tree` is true. */
function applyEdits(
  module: Module,
  table: NodeTable,
  edits: EditSet,
  tree: boolean,
): { source: SourceText; textEdits: SourceEditList; applied: number } {
  const source = module.source;
  // Inserted text is written with the module's own names for pypto.language / .distributed.
  const spell = module.spell ?? { pl: 'pl', pld: 'pld' };
  const plan = planEdits(table, source, edits, tree ? 'tree' : 'text', spell);
  const calls = plan.edits.calls;
  const ins = plan.inserts;
  const textEdits = new SourceEditList(
    ins.call.length + plan.deps.name.length + plan.addKw.length + plan.replaceKw.length + plan.attrs.length + 2 * plan.hoists.length,
  );
  const placed = (place: string): number[] => {
    const out: number[] = [];
    for (let k = 0; k < ins.call.length; k++) if (calls.place[ins.call.at(k)] === place) out.push(k);
    return out;
  };
  /** The inserted statements of a tree rewrite, per anchor statement, in the order given. */
  const byAnchor = (order: readonly number[]): Map<number, Stmt[]> => {
    const at = new Map<number, Stmt[]>();
    for (const k of order) {
      const id = calls.stmt.at(ins.call.at(k));
      let list = at.get(id);
      if (!list) at.set(id, (list = []));
      list.push(ins.stmt[k]!);
    }
    return at;
  };

  // After a statement: group per anchor, inner anchors before outer ones ending at the same place.
  const after = placed('after').sort((a, b) => {
    const ca = ins.call.at(a);
    const cb = ins.call.at(b);
    return (
      ins.end.at(a) - ins.end.at(b) ||
      ins.start.at(b) - ins.start.at(a) ||
      calls.stmt.at(ca) - calls.stmt.at(cb) ||
      calls.seq.at(ca) - calls.seq.at(cb)
    );
  });
  for (const k of after) textEdits.push('insertAfter', ins.start.at(k), ins.end.at(k), ins.line[k]!);

  // Hoisted calls: `name = call` first before the statement, then `name` where the call was.
  const hoists = [...plan.hoists].sort((a, b) => a.start - b.start || a.expr.start - b.expr.start);
  for (const h of hoists) textEdits.push('insertBefore', h.start, h.end, h.line);
  for (const h of hoists) textEdits.push('replace', h.expr.start, h.expr.end, h.name);

  // Before a statement, in seq order.
  const before = placed('before').sort(
    (a, b) => ins.start.at(a) - ins.start.at(b) || calls.seq.at(ins.call.at(a)) - calls.seq.at(ins.call.at(b)),
  );
  for (const k of before) textEdits.push('insertBefore', ins.start.at(k), ins.end.at(k), ins.line[k]!);
  const insertsAt = tree ? byAnchor(after) : null;
  const insertsBefore = tree ? byAnchor(before) : null;
  if (insertsBefore) {
    for (const h of [...hoists].reverse()) {
      const list = insertsBefore.get(h.stmt);
      if (list) list.unshift(h.inserted);
      else insertsBefore.set(h.stmt, [h.inserted]);
      // The call's node becomes the name, where it stands in the statement.
      const node = h.expr as unknown as Record<string, unknown>;
      for (const k of Object.keys(node)) if (k !== 'start' && k !== 'end') delete node[k];
      Object.assign(node, { kind: 'Name', id: h.name });
    }
  }

  // replace_deps: the Submit's / scope's deps list becomes [name]. (The lists one barrier
  // replaces come one after the other: they share the text.)
  let list = '';
  let listOf = '';
  let nl: string | undefined;
  const deps = plan.deps;
  for (let k = 0; k < deps.name.length; k++) {
    const name = deps.name[k]!;
    const start = deps.start.at(k);
    const end = deps.end.at(k);
    if (tree) deps.node[k]!.deps = [{ kind: 'Name', id: name, start, end }];
    const hash = source.text.indexOf('#', start);
    if (hash >= 0 && hash < end) {
      // (A list written over several lines may hold comments: they are kept.)
      nl ??= newlineStyle(source.text);
      textEdits.push('replace', start, end, depsKeepingComments(source.text, start, end, name, nl));
      continue;
    }
    if (name !== listOf || list === '') {
      list = `[${name}]`;
      listOf = name;
    }
    textEdits.push('replace', start, end, list);
  }

  // set_kwarg: add `key=value` to a call.
  for (const { call, key, value, text } of plan.addKw) {
    if (tree) call.kwargs = [...call.kwargs, { name: key, value, start: call.end, end: call.end }]; // (IR arrays may be the shared frozen empty one)
    textEdits.push('addKeyword', call.start, call.end, key, respell(text, spell));
  }

  // replace_kwarg: a keyword's value becomes the rule's text.
  for (const { kw, value, text } of plan.replaceKw) {
    textEdits.push('replace', kw.value.start, kw.value.end, respell(text, spell));
    if (tree) kw.value = value;
  }

  // remove_func_attr: drop entries of the pl.func_attr({...}) lines, a function's keys at once.
  const attrKeys = new Map<FunctionDef, Set<string>>();
  for (const { func, key } of plan.attrs) (attrKeys.get(func) ?? attrKeys.set(func, new Set()).get(func)!).add(key);
  for (const [func, keys] of attrKeys) for (const e of removeFuncAttrs(func, keys, source.text)) textEdits.add(e);

  const applied = ins.call.length + deps.name.length + plan.addKw.length + plan.replaceKw.length + plan.attrs.length + plan.hoists.length;
  // Tree: splice inserted statements into their blocks.
  if (insertsAt && insertsBefore) spliceBlocks(table, insertsAt, insertsBefore);
  // Printed: the plan is not needed any more.
  ins.stmt.length = 0;

  return { source, textEdits, applied };
}

/**
 * The text a deps list [start, end) becomes when it holds only `name`, keeping the list's
 * comments: `[\n    a,  # c\n    # d\n]` becomes `[name  # c\n    # d\n]` (each comment on a
 * line of its own after the first, at the indentation of its line; the `]` at that of its own);
 * `nl`: the file's newline.
 */
export function depsKeepingComments(text: string, start: number, end: number, name: string, nl: string): string {
  const comments: number[] = [];
  const ends: number[] = [];
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const r = skipString(text, i);
      i = r < 0 ? -r - 1 : r;
    } else if (c === 35) {
      let j = i;
      while (j < end && newlineAt(text, j) === 0) j++;
      comments.push(i);
      ends.push(j);
      i = j;
    } else i++;
  }
  if (comments.length === 0) return `[${name}]`;
  /** The white space the physical line holding `at` starts with. */
  const indentOf = (at: number): string => {
    let ls = at;
    while (ls > 0 && newlineAt(text, ls - 1) === 0) ls--;
    let e = ls;
    while (e < at && (text.charCodeAt(e) === 32 || text.charCodeAt(e) === 9 || text.charCodeAt(e) === 12)) e++;
    return text.slice(ls, e);
  };
  let out = `[${name}`;
  comments.forEach((at, k) => {
    const comment = text.slice(at, ends[k]).trimEnd();
    out += k === 0 ? `  ${comment}` : `${nl}${indentOf(at)}${comment}`;
  });
  return `${out}${nl}${indentOf(end - 1)}]`;
}

function isStmt(n: { kind: string }): boolean {
  return ['Assign', 'ExprStmt', 'Return', 'Pass', 'Break', 'Continue', 'If', 'While', 'For', 'Scope'].includes(n.kind);
}

function spliceBlocks(table: NodeTable, after: Map<number, Stmt[]>, before: Map<number, Stmt[]>): void {
  const blocks = new Set<number>();
  for (const id of [...after.keys(), ...before.keys()]) blocks.add(table.blockOfStmt(id)!);
  for (const bk of blocks) {
    const block = table.get(bk);
    if (block?.kind !== 'Block') continue;
    const out: Stmt[] = [];
    block.stmts.forEach((s, i) => {
      const id = block.first + i; // the block's statements have consecutive ids
      out.push(...(before.get(id) ?? []), s, ...(after.get(id) ?? []));
    });
    // (no spread: blocks may hold a million statements)
    block.stmts.length = 0;
    for (const s of out) block.stmts.push(s);
  }
}
