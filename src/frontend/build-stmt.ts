/**
 * IR builders of statements: assignments, if/elif chains, loops (`pl.range`, `pl.while_`, ...)
 * and scopes (`with`), with the IR's conventions from nodes.ts.
 *
 * Every builder is given a `Reporter` that throws a located `unsupported-construct` (or
 * `syntax-error`) diagnostic.
 */

import { empty, exact } from '../ir/compact.js';
import type {
  AssignStmt,
  CallExpr,
  Expr,
  ForStmt,
  IfStmt,
  Keyword,
  LoopKind,
  NameExpr,
  ScopeKind,
  ScopeStmt,
  Span,
  Stmt,
  TupleExpr,
  WhileStmt,
} from '../ir/nodes.js';
import { spanOf } from '../ir/nodes.js';
import { printExpr } from '../ir/print.js';

import { type BuildCtx, calleeSpelling, F_STRINGS, intToEnum, listElts } from './build-expr.js';
import { toType } from './build-types.js';

/** Where a body ends: its last statement's end, or `fallback` when it is empty. */
export function lastEnd(body: readonly Stmt[], fallback: number): number {
  return body.length > 0 ? body[body.length - 1]!.end : fallback;
}

/** `target = value` / `target: ann = value`, including tuple targets and `name[i] = v`. */
export function makeAssign(ctx: BuildCtx, target: Expr, value: Expr, annotation: Expr | null, span: Span): AssignStmt {
  const ann = annotation ? toType(ctx, annotation) : null;
  if (value.kind === 'Str' && value.fstring) ctx.report.unsupported(value, F_STRINGS);
  if (target.kind === 'Name') {
    return { kind: 'Assign', targets: [target], tupleTarget: false, annotation: ann, value, start: span.start, end: span.end };
  }
  if (target.kind === 'Tuple' || target.kind === 'List') {
    if (ann) ctx.report.unsupported(target, 'an annotated assignment needs a single name as its target');
    const names: NameExpr[] = [];
    let nested = false;
    const flatten = (elts: readonly Expr[]): void => {
      for (const t of elts) {
        if ((t.kind === 'Tuple' || t.kind === 'List') && t.elts.length > 0) {
          nested = true;
          flatten(t.elts);
        } else if (t.kind !== 'Name') ctx.report.unsupported(t, 'a tuple assignment target may only hold names and tuples of names');
        else names.push(t);
      }
    };
    flatten(target.elts);
    if (names.length === 0) ctx.report.unsupported(target, 'an empty assignment target is not supported');
    const a: AssignStmt = {
      kind: 'Assign',
      targets: exact(names),
      tupleTarget: true,
      annotation: null,
      value,
      start: span.start,
      end: span.end,
    };
    if (nested) a.targetPattern = asTuple(target);
    return a;
  }
  if (target.kind === 'Subscript' && target.value.kind === 'Name' && hasSlice(target.index)) {
    // PyPTO: `dst[<slices>] = src` is `dst = pl.assemble(dst, src, offsets)`; the rules resolve
    // it to tile.assemble or tensor.assemble by dst's type, as for a written `pl.assemble`.
    if (ann) ctx.report.unsupported(target, 'an annotated assignment needs a single name as its target');
    const dst = target.value;
    const items = target.index.kind === 'Tuple' ? target.index.elts : [target.index];
    const offsets: Expr[] = items.map((it) =>
      structuredClone(it.kind !== 'Slice' ? it : (it.lower ?? { kind: 'Int', value: 0, start: it.start, end: it.start })),
    );
    const call: CallExpr = {
      kind: 'Call',
      callee: { kind: 'op', name: 'assemble', known: true },
      args: [{ ...dst }, value, { kind: 'List', elts: offsets, start: target.index.start, end: target.index.end }],
      kwargs: [],
      start: span.start,
      end: span.end,
    };
    return {
      kind: 'Assign',
      targets: [dst],
      tupleTarget: false,
      annotation: null,
      value: call,
      sliceIndex: target.index,
      start: span.start,
      end: span.end,
    };
  }
  if (target.kind === 'Subscript' && target.value.kind === 'Name') {
    if (ann) ctx.report.unsupported(target, 'an annotated assignment needs a single name as its target');
    const arr = target.value;
    const call: CallExpr = {
      kind: 'Call',
      callee: { kind: 'op', name: 'array.update_element', known: true },
      args: [{ ...arr }, target.index, value],
      kwargs: [],
      start: span.start,
      end: span.end,
    };
    return { kind: 'Assign', targets: [arr], tupleTarget: false, annotation: null, value: call, start: span.start, end: span.end };
  }
  return ctx.report.unsupported(target, 'this assignment target is not supported; assign to a name, a tuple of names or name[index]');
}

/** A nested target with every level a Tuple (`[a, b]` reads as `(a, b)`). */
function asTuple(e: Extract<Expr, { kind: 'Tuple' | 'List' }>): TupleExpr {
  return { kind: 'Tuple', elts: e.elts.map((x) => (x.kind === 'Tuple' || x.kind === 'List' ? asTuple(x) : x)), start: e.start, end: e.end };
}

function hasSlice(index: Expr): boolean {
  return index.kind === 'Slice' || (index.kind === 'Tuple' && index.elts.some((e) => e.kind === 'Slice'));
}

export type Head =
  | { kind: 'if' | 'elif' | 'while'; cond: Expr; start: number; span: Span }
  | { kind: 'else'; start: number; span: Span }
  | { kind: 'for'; target: Expr; iter: Expr; start: number; span: Span }
  | { kind: 'with'; items: { expr: Expr; asName: NameExpr | null; span: Span }[]; start: number; span: Span };

export interface Clause {
  head: Head;
  body: Stmt[];
}

/** An if/elif.../else chain; `elif` becomes an else holding one If with isElif. */
export function makeIf(ctx: BuildCtx, clauses: Clause[]): IfStmt {
  const first = clauses[0]!;
  if (first.head.kind !== 'if') ctx.report.syntax(first.head.span, `'${first.head.kind}' without a matching 'if'`);
  let elseBody: Stmt[] = empty();
  let n = clauses.length;
  const last = clauses[n - 1]!;
  const end = lastEnd(last.body, last.head.span.end);
  if (n > 1 && last.head.kind === 'else') {
    elseBody = last.body;
    n--;
  }
  let node: IfStmt | null = null;
  for (let i = n - 1; i >= 0; i--) {
    const c = clauses[i]!;
    const h = c.head;
    if (h.kind !== (i === 0 ? 'if' : 'elif')) {
      ctx.report.syntax(h.span, h.kind === 'else' ? "'else' must be the last clause of an if statement" : `unexpected '${h.kind}'`);
    }
    const orelse: Stmt[] = node ? [node] : elseBody;
    node = {
      kind: 'If',
      cond: (h as { cond: Expr }).cond,
      then: c.body,
      orelse,
      isElif: i > 0,
      start: h.start,
      end,
    };
  }
  return node!;
}

/** Builds a `while c:` statement (an `else:` clause is an unsupported construct). */
export function makeWhile(ctx: BuildCtx, clause: Clause, elseClause: Clause | null): WhileStmt {
  if (elseClause) ctx.report.unsupported(elseClause.head.span, "'else' on a while loop is not supported");
  const h = clause.head as { cond: Expr; start: number };
  return { kind: 'While', cond: h.cond, body: clause.body, start: h.start, end: lastEnd(clause.body, clause.head.span.end) };
}

const LOOP_KINDS: Record<string, LoopKind> = {
  'pl.range': 'range',
  range: 'range',
  'pl.parallel': 'parallel',
  'pl.unroll': 'unroll',
  'pl.pipeline': 'pipeline',
  'pl.spmd': 'spmd',
  'pl.while_': 'while',
  'pl.split_aiv': 'split_aiv',
};

function names(ctx: BuildCtx, e: Expr): NameExpr[] {
  if (e.kind === 'Name') return [e];
  if (e.kind === 'Tuple' || e.kind === 'List') {
    return e.elts.map((x) => (x.kind === 'Name' ? x : ctx.report.unsupported(x, 'loop-carried targets must be names')));
  }
  return ctx.report.unsupported(e, 'loop-carried targets must be names');
}

function callParts(e: Expr): { spelled: string | null; args: Expr[]; kwargs: Keyword[]; span: Span } | null {
  if (e.kind !== 'Call') return null;
  return { spelled: calleeSpelling(e.callee), args: [...e.args], kwargs: [...e.kwargs], span: spanOf(e) };
}

/**
 * The bounds `[start, stop, step]` of a range-like loop, bound as Python and PyPTO bind them:
 * positionally only. `pl.range(*args, init_values=None)` (and Python's `range`) take no
 * `start=` / `stop=` / `step=` keywords — Python raises TypeError and PyPTO's parser
 * "Unknown keyword argument" — so such a keyword is a located error whose fix spells the
 * call positionally (or says which bound is given twice).
 */
function rangeBounds(ctx: BuildCtx, spelled: string, args: Expr[], kwargs: Keyword[], span: Span): Expr[] {
  const bound = kwargs.find((k) => k.name === 'start' || k.name === 'stop' || k.name === 'step');
  if (bound) {
    // What the user meant: the arguments bound in order to parameters (start, stop, step).
    const names = ['start', 'stop', 'step'].slice(0, args.length);
    const twice = kwargs.find((k) => names.includes(k.name));
    const byName = new Map<string, string>(names.map((n, i) => [n, printExpr(args[i]!)]));
    for (const k of kwargs) if (!byName.has(k.name) && ['start', 'stop', 'step'].includes(k.name)) byName.set(k.name, printExpr(k.value));
    const fix = twice
      ? `'${twice.name}' is also given positionally; keep one of them`
      : `write the bounds positionally: ${spelled}(${[
          byName.get('start') ?? (byName.has('step') ? '0' : null),
          byName.get('stop') ?? 'STOP',
          byName.get('step') ?? null,
        ]
          .filter((x) => x !== null)
          .join(', ')})`;
    const takes =
      spelled === 'range'
        ? 'range() takes no keyword arguments'
        : `${spelled}() takes its bounds positionally only (its keywords: init_values, attrs${spelled === 'pl.pipeline' ? ', stage' : ''})`;
    return ctx.report.unsupported(bound, `'${bound.name}=' is not a parameter: ${takes}; ${fix}`);
  }
  if (args.length === 0) return ctx.report.unsupported(span, `${spelled}() needs at least one argument (stop), e.g. ${spelled}(10)`);
  if (args.length > 3) return ctx.report.unsupported(args[3]!, `${spelled} takes at most three positional arguments (start, stop, step)`);
  const at: Span = { start: span.start, end: span.start };
  const int = (v: number): Expr => ({ kind: 'Int', value: v, start: at.start, end: at.end });
  if (args.length === 1) return [int(0), args[0]!, int(1)];
  return [args[0]!, args[1]!, args[2] ?? int(1)];
}

/** Builds a `for` loop: its kind, target, iter-args, normalised range bounds, init values and SSA condition. */
export function makeFor(ctx: BuildCtx, clause: Clause, elseClause: Clause | null): ForStmt {
  const h = clause.head as Extract<Head, { kind: 'for' }>;
  if (elseClause) ctx.report.unsupported(elseClause.head.span, "'else' on a for loop is not supported");
  const call = callParts(h.iter);
  const loopKind = call?.spelled ? LOOP_KINDS[call.spelled] : undefined;
  if (!call || !loopKind) {
    return ctx.report.unsupported(
      h.iter,
      'a for loop must iterate over pl.range, pl.parallel, pl.unroll, pl.pipeline, pl.spmd, pl.split_aiv, pl.while_ or range',
    );
  }
  if (loopKind === 'split_aiv') {
    if (call.args.length !== 1)
      ctx.report.unsupported(
        call.span,
        'pl.split_aiv takes one positional argument, the lane count: pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN)',
      );
    if (!call.kwargs.some((k) => k.name === 'mode'))
      ctx.report.unsupported(call.span, 'pl.split_aiv needs its keyword-only mode=, e.g. pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN)');
    if (h.target.kind !== 'Name')
      ctx.report.unsupported(h.target, 'the target of a pl.split_aiv loop must be one name (the AIV lane index)');
  }
  let target: NameExpr | null = null;
  let iterArgs: NameExpr[] = empty();
  const t = h.target;
  if (loopKind === 'while') {
    iterArgs = names(ctx, t);
  } else if (t.kind === 'Name') {
    target = t;
  } else if (
    t.kind === 'Tuple' &&
    t.elts.length === 2 &&
    t.elts[0]!.kind === 'Name' &&
    (t.elts[1]!.kind === 'Tuple' || t.elts[1]!.kind === 'List')
  ) {
    target = t.elts[0] as NameExpr;
    iterArgs = names(ctx, t.elts[1]!);
  } else {
    ctx.report.unsupported(t, 'a loop target must be a name, or `i, (a, b)` with loop-carried names');
  }
  let initValues: Expr[] = empty();
  const kwargs: Keyword[] = [];
  for (const kw of call.kwargs) {
    if (kw.name === 'init_values') {
      initValues = kw.value.kind === 'Tuple' || kw.value.kind === 'List' ? kw.value.elts : [kw.value];
    } else kwargs.push(kw);
  }
  let args = call.args;
  if (loopKind === 'range' || loopKind === 'parallel' || loopKind === 'unroll' || loopKind === 'pipeline') {
    args = rangeBounds(ctx, call.spelled!, args, kwargs, call.span);
  }
  let body = clause.body;
  let cond: Expr | null = null;
  if (loopKind === 'while') {
    const first = body[0];
    if (first && first.kind === 'ExprStmt' && first.value.kind === 'Call') {
      const c = first.value;
      if (calleeSpelling(c.callee) === 'pl.cond' && c.args.length === 1) {
        cond = c.args[0]!;
        body = body.slice(1);
      }
    }
  }
  return {
    kind: 'For',
    loopKind,
    target,
    iterArgs,
    args,
    kwargs: exact(kwargs),
    initValues,
    cond,
    body,
    start: h.start,
    end: lastEnd(clause.body, h.span.end),
  };
}

/** Builds a `with` scope: manual / auto / at / spmd / cluster, its deps and `as` name. */
export function makeWith(ctx: BuildCtx, clause: Clause): ScopeStmt {
  const h = clause.head as Extract<Head, { kind: 'with' }>;
  if (h.items.length > 1) ctx.report.unsupported(h.items[1]!.span, 'a with statement may open only one scope');
  const item = h.items[0]!;
  const call = callParts(item.expr);
  const kinds: Record<string, ScopeKind> = {
    'pl.manual_scope': 'manual',
    'pl.scope': 'auto',
    'pl.at': 'at',
    'pl.spmd': 'spmd',
    'pl.cluster': 'cluster',
  };
  let scope = call?.spelled ? kinds[call.spelled] : undefined;
  if (!call || !scope) {
    return ctx.report.unsupported(item.expr, 'a with statement must open pl.scope, pl.manual_scope, pl.at, pl.spmd or pl.cluster');
  }
  let deps: Expr[] | null = null;
  let depsStart = -1;
  let depsEnd = -1;
  const kwargs: Keyword[] = [];
  for (const kw of call.kwargs) {
    if (kw.name === 'deps') {
      deps = listElts(ctx, kw.value, 'deps=');
      depsStart = kw.value.start;
      depsEnd = kw.value.end;
    } else if (kw.name === 'mode' && call.spelled === 'pl.scope') {
      const v = intToEnum(kw.value, 'ScopeMode');
      if (v.kind === 'Enum' && v.enum === 'ScopeMode') scope = v.member === 'MANUAL' ? 'manual' : 'auto';
      else ctx.report.unsupported(kw.value, 'mode= must be pl.ScopeMode.MANUAL or pl.ScopeMode.AUTO');
    } else kwargs.push(kw);
  }
  return {
    kind: 'Scope',
    scope,
    args: call.args,
    kwargs: exact(kwargs),
    deps,
    depsStart,
    depsEnd,
    asName: item.asName,
    body: clause.body,
    start: h.start,
    end: lastEnd(clause.body, h.span.end),
  };
}

// ---------------------------------------------------------------------------------------
// Functions
