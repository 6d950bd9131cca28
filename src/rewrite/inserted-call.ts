// The statements an insert_call edit inserts: the call the rules derived (rules/edits.dl
// insert_call, call_arg, call_kwarg) built as IR and checked (rule-supplied text must be the
// expression or name it claims to be), and the located `bad-edit` error when it is not.

import type { NodeTable } from '../facts/extract.js';
import { isIdentifier, isOpName, parseExprText } from '../frontend/expr-text.js';
import type { CallExpr, Expr, Keyword, Span, Stmt, TensorType, TileType } from '../ir/nodes.js';
import { spanOf } from '../ir/nodes.js';
import { type Diagnostic, DiagnosticError, errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import type { EditValue, InsertCallEdit } from './edits.js';

/** How a module spells pypto.language and pypto.language.distributed (`pl`, `pld` by default). */
export interface Spell {
  pl: string;
  pld: string;
}

const opCallee = (name: string): CallExpr['callee'] => ({ kind: 'op', name, known: true });

/** The located `bad-edit` diagnostic for an edit at node `id` (the file when the id has no span). */
export function badEditDiagnostic(table: NodeTable, source: SourceText, id: number, message: string): Diagnostic {
  const e = table.get(id);
  const span = e && e.kind !== 'Block' && e.kind !== 'Exit' && 'start' in e ? spanOf(e) : undefined;
  const text = `the rules derived an edit the rewriter cannot apply: ${message}; check the rule deriving it (ptolog explain shows its proof).`;
  return span
    ? errorAt(source, span.start, span.end, 'bad-edit', text)
    : { severity: 'error', code: 'bad-edit', path: source.path, message: text };
}

/**
 * A located diagnostic for an edit the rules derived but the rewriter cannot apply (a user rule
 * file naming an unknown marker, or an id of the wrong kind): located at the node the edit names
 * when it has one.
 */
export function badEdit(table: NodeTable, source: SourceText, id: number, message: string): DiagnosticError {
  return new DiagnosticError([badEditDiagnostic(table, source, id, message)]);
}

/** The tuple text of an insert_call, as a rule writer reads it in a message. */
export function callTuple(e: InsertCallEdit): string {
  return `insert_call(${e.stmt}, "${e.place}", ${e.seq}, "${e.op}", "${e.bind}")`;
}

/** Builds one argument value of an inserted call (spans: `span`), or says why it cannot. */
function editValue(v: EditValue, table: NodeTable, span: Span): Expr | string {
  switch (v.kind) {
    case 'expr':
    case 'list': {
      const n = table.get(v.node);
      if (!n || !isExpr(n)) return `"${v.kind}" names ${v.node}, which is not an expression`;
      const copy = withSpan(n as Expr, span);
      return v.kind === 'expr' ? copy : { kind: 'List', elts: [copy], start: span.start, end: span.end };
    }
    case 'name':
      if (!isIdentifier(v.text)) return `"name" value ${JSON.stringify(v.text)} is not a Python name`;
      return { kind: 'Name', id: v.text, start: span.start, end: span.end };
    case 'text': {
      const r = parseExprText(v.text, span.start);
      return 'error' in r ? `"text" value ${JSON.stringify(v.text)} is not a DSL expression: ${r.error}` : r.expr;
    }
    case 'shape':
    case 'zeros': {
      const type = table.get(v.node);
      if (!type || (type.kind !== 'TensorType' && type.kind !== 'TileType'))
        return `"${v.kind}" names ${v.node}, which is not a tensor or tile type`;
      // The declared shape as written: its dimension expressions (`[1, N]`), or the name of a
      // list constant (`SHAPE`) when the type was written with one.
      const t = type as TensorType | TileType;
      if (v.kind === 'zeros')
        return {
          kind: 'List',
          elts: t.shape.map(() => ({ kind: 'Int', value: 0, start: span.start, end: span.end })),
          start: span.start,
          end: span.end,
        };
      return t.shapeExpr
        ? withSpan(t.shapeExpr, span)
        : { kind: 'List', elts: t.shape.map((d) => withSpan(d, span)), start: span.start, end: span.end };
    }
    default:
      return `the value kind "${v.kind}" is none of expr, list, name, text, shape, zeros`;
  }
}

/**
 * Builds the statement an insert_call edit inserts (spans: zero-width at `at`), or the reasons
 * it cannot (each a sentence for a `bad-edit` diagnostic).
 */
export function insertedStmt(e: InsertCallEdit, table: NodeTable, at: number): Stmt | string[] {
  const span: Span = { start: at, end: at };
  const problems: string[] = [];
  // The tuple text is built only for a message (most edits have none).
  const where = (): string => callTuple(e);
  if (e.place !== 'after' && e.place !== 'before') problems.push(`${where()}: the place must be "after" or "before"`);
  if (!isOpName(e.op))
    problems.push(`${where()}: "${e.op}" is not an op name (Python names joined by dots, as the op catalog spells them)`);
  if (e.bind !== '' && !isIdentifier(e.bind)) problems.push(`${where()}: the bound name "${e.bind}" is not a Python name`);
  const args: Expr[] = [];
  e.args.forEach((a, i) => {
    if (a.pos !== i) {
      problems.push(`${where()}: call_arg positions must run 0, 1, ...; found ${e.args.map((x) => x.pos).join(', ')}`);
      return;
    }
    const v = editValue(a.value, table, span);
    if (typeof v === 'string') problems.push(`${where()} argument ${a.pos}: ${v}`);
    else args.push(v);
  });
  const kwargs: Keyword[] = [];
  for (const [i, k] of e.kwargs.entries()) {
    if (!isIdentifier(k.key)) problems.push(`${where()}: the keyword "${k.key}" is not a Python name`);
    else if (i > 0 && e.kwargs[i - 1]!.key === k.key) problems.push(`${where()}: the keyword ${k.key}= is given twice`);
    const v = editValue(k.value, table, span);
    if (typeof v === 'string') problems.push(`${where()} keyword ${k.key}=: ${v}`);
    else kwargs.push({ name: k.key, value: v, start: at, end: at });
  }
  if (problems.length > 0) return problems;
  const call: Expr = { kind: 'Call', callee: opCallee(e.op), args, kwargs, start: at, end: at };
  if (e.bind === '') return { kind: 'ExprStmt', value: call, start: at, end: at };
  return {
    kind: 'Assign',
    targets: [{ kind: 'Name', id: e.bind, start: at, end: at }],
    tupleTarget: false,
    annotation: null,
    value: call,
    start: at,
    end: at,
  };
}

/** A deep copy of an expression with every span set to `span`. */
export function withSpan<T>(x: T, span: Span): T {
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map((v: unknown) => withSpan(v, span)) as T;
  const out: Record<string, unknown> = {};
  const from = x as Record<string, unknown>;
  for (const k in from) {
    const v = from[k];
    if (v === undefined || !Object.hasOwn(from, k)) continue;
    // A node's own span is its `start` / `end`; a deps list's is `depsStart` / `depsEnd` (-1: none).
    if (k === 'depsStart' || k === 'depsEnd') out[k] = v === -1 ? -1 : k === 'depsStart' ? span.start : span.end;
    else out[k] = k === 'start' ? span.start : k === 'end' ? span.end : withSpan(v, span);
  }
  return out as T;
}

/** True for the kinds of expression nodes. */
export function isExpr(n: { kind: string }): boolean {
  return [
    'Name',
    'Int',
    'Float',
    'Bool',
    'None',
    'Str',
    'List',
    'Tuple',
    'Dict',
    'Attr',
    'Enum',
    'Subscript',
    'Unary',
    'Binary',
    'Call',
    'Submit',
  ].includes(n.kind);
}
