/**
 * IR builders shared by the grammar semantics and the chunked (split) parse: enum literals,
 * calls normalised through the op table, `pl.submit`, types, and the compound statements
 * (if/elif chains, loops, scopes) with the IR's conventions from nodes.ts.
 *
 * Every builder is given a `Reporter` that throws a located `unsupported-construct` (or
 * `syntax-error`) diagnostic.
 */

import { empty, exact, type InternPool } from '../ir/compact.js';
import { dotted } from '../ir/dotted.js';
import type {
  AssignStmt,
  CallExpr,
  Callee,
  CompExpr,
  ConstValue,
  DictExpr,
  Direction,
  EnumExpr,
  Expr,
  ForStmt,
  FunctionDef,
  FunctionKind,
  IfStmt,
  Keyword,
  LoopKind,
  NameExpr,
  Param,
  ScopeKind,
  ScopeStmt,
  Span,
  Stmt,
  SubmitExpr,
  TupleExpr,
  TypeExpr,
  WhileStmt,
} from '../ir/nodes.js';
import { spanOf } from '../ir/nodes.js';
import { DATA_TYPES, ENUMS, type OpSpec, opBySpelling } from '../ir/ops.js';
import { printExpr } from '../ir/print.js';
import { stmtParts, walkExpr, walkStmts } from '../ir/visit.js';
import { foldDecoratorPath } from './decorators.js';

export interface Reporter {
  unsupported(span: Span, message: string): never;
  syntax(span: Span, message: string): never;
}

export interface BuildCtx {
  report: Reporter;
  constants: ReadonlyMap<string, ConstValue>;
  /** Names of the module's JIT kernels (a bare call of one is a program-function call). */
  jitFuncs?: ReadonlySet<string> | undefined;
  /** Shared strings and op callees of this parse (absent: every call gets its own). */
  pool?: InternPool | undefined;
}

// ---------------------------------------------------------------------------------------
// Expressions

/** The spelling of a call's callee (`pl.range`, `range`, `tile.store` for known ops), or null. */
export function calleeSpelling(c: Callee): string | null {
  if (c.kind === 'op') return c.name;
  if (c.kind === 'self') return null;
  return dotted(c.expr);
}

/** Builds `value.attr`, turning known enum literals (`pl.FP32`, `pld.NotifyOp.AtomicAdd`) into Enum nodes. */
export function makeAttr(value: Expr, attr: string, span: Span): Expr {
  if (value.kind === 'Name' && value.id === 'pl' && DATA_TYPES.has(attr)) {
    return { kind: 'Enum', module: 'pl', enum: 'DataType', member: attr, start: span.start, end: span.end };
  }
  if (value.kind === 'Attr' && value.value.kind === 'Name' && (value.value.id === 'pl' || value.value.id === 'pld')) {
    const spec = ENUMS[value.attr];
    if (spec && Object.hasOwn(spec.members, attr)) {
      return { kind: 'Enum', module: spec.module, enum: value.attr, member: attr, start: span.start, end: span.end };
    }
    if (value.attr === 'DataType' && DATA_TYPES.has(attr)) {
      return { kind: 'Enum', module: 'pl', enum: 'DataType', member: attr, start: span.start, end: span.end };
    }
  }
  return { kind: 'Attr', value, attr, start: span.start, end: span.end };
}

/** A name read through the module's imports (`names`: local → canonical): `pyl` → `pl`, `Tensor` → `pl.Tensor`. */
export function resolveImported(names: ReadonlyMap<string, string> | undefined, id: string, span: Span): Expr {
  const c = names?.get(id);
  if (c === undefined || c === id) return { kind: 'Name', id, start: span.start, end: span.end };
  const parts = c.split('.');
  let e: Expr = { kind: 'Name', id: parts[0]!, start: span.start, end: span.end };
  for (const part of parts.slice(1)) e = makeAttr(e, part, span);
  return e;
}

/** An Int where an enum is expected becomes that enum's member (unknown value: kept). */
export function intToEnum(e: Expr, enumName: string): Expr {
  if (e.kind !== 'Int') return e;
  const spec = ENUMS[enumName];
  if (!spec || e.value < 0) return e;
  let found: string | null = null;
  for (const [m, v] of Object.entries(spec.members)) {
    if (v === e.value) {
      if (found !== null) return e;
      found = m;
    }
  }
  if (found === null) return e;
  const out: EnumExpr = { kind: 'Enum', module: spec.module, enum: enumName, member: found, start: e.start, end: e.end };
  return out;
}

export interface ArgDesc {
  /** Keyword name, or null for a positional argument. */
  name: string | null;
  value: Expr;
  start: number;
  end: number;
}

// Plain loops, no callbacks: this runs for every call of a known op, mostly before the JIT has compiled it.
function normaliseKnown(ctx: BuildCtx, spec: OpSpec, args: Expr[], kwargs: Keyword[]): void {
  const params = spec.params;
  let k = 0;
  while (k < params.length && !params[k]!.kwOnly) k++;
  if (k < params.length && args.length > k) {
    const name = params[k]!.name;
    ctx.report.unsupported(
      args[k]!,
      `'${name}' is keyword-only in ${spec.printName}() (PyPTO: takes ${k} positional arguments); write ${name}=...`,
    );
  }
  if (spec.keywordsToPositions !== false) {
    for (let k = args.length; k < params.length; k++) {
      const pname = params[k]!.name;
      let idx = 0;
      while (idx < kwargs.length && kwargs[idx]!.name !== pname) idx++;
      if (idx === kwargs.length) break;
      args.push(kwargs[idx]!.value);
      // Removed in place (a splice allocates the array of removed items).
      for (let j = idx; j + 1 < kwargs.length; j++) kwargs[j] = kwargs[j + 1]!;
      kwargs.pop();
    }
  }
  for (let i = 0; i < args.length && i < params.length; i++) {
    const en = params[i]!.enum;
    if (en) args[i] = intToEnum(args[i]!, en);
  }
  for (let i = 0; i < kwargs.length; i++) {
    const kw = kwargs[i]!;
    let en = spec.kwEnums?.[kw.name];
    if (en === undefined) {
      for (let j = 0; j < params.length; j++) {
        if (params[j]!.name === kw.name) {
          en = params[j]!.enum;
          break;
        }
      }
    }
    if (en) kw.value = intToEnum(kw.value, en);
  }
}

function listElts(ctx: BuildCtx, e: Expr, what: string): Expr[] {
  if (e.kind === 'List' || e.kind === 'Tuple') return e.elts;
  if (e.kind === 'Comp' && what === 'deps=') return [e];
  return ctx.report.unsupported(e, `${what} must be a list, e.g. [tids]`);
}

/** Builds a call: `self.f(...)`, a known op (normalised), an unknown `pl.`/`pld.` op, `pl.submit`, or anything else. */
export function makeCall(ctx: BuildCtx, calleeExpr: Expr, argDescs: ArgDesc[], span: Span): Expr {
  const args: Expr[] = [];
  const kwargs: Keyword[] = [];
  // Indexed loops: an iterator per loop costs much before the JIT has compiled this.
  for (let i = 0; i < argDescs.length; i++) {
    const a = argDescs[i]!;
    if (a.name === null) {
      if (kwargs.length > 0) ctx.report.syntax(a, 'a positional argument cannot follow a keyword argument');
      args.push(a.value);
    } else {
      for (let j = 0; j < kwargs.length; j++)
        if (kwargs[j]!.name === a.name) ctx.report.syntax(a, `keyword argument '${a.name}' is repeated`);
      kwargs.push(a as Keyword); // an ArgDesc with a name has a Keyword's shape
    }
  }
  if (calleeExpr.kind === 'Attr' && calleeExpr.value.kind === 'Name' && calleeExpr.value.id === 'self') {
    return {
      kind: 'Call',
      callee: { kind: 'self', name: calleeExpr.attr },
      args: exact(args),
      kwargs: exact(kwargs),
      start: span.start,
      end: span.end,
    };
  }
  if (calleeExpr.kind === 'Name' && ctx.jitFuncs?.has(calleeExpr.id)) {
    return {
      kind: 'Call',
      callee: { kind: 'self', name: calleeExpr.id, bare: true },
      args: exact(args),
      kwargs: exact(kwargs),
      start: span.start,
      end: span.end,
    };
  }
  const spelled = dotted(calleeExpr);
  if (spelled !== 'pl.static_print' && spelled !== 'pl.static_assert') rejectFStrings(ctx, args, kwargs);
  // A helper imported from another module called through its module (`comm.ping(...)`).
  if (spelled !== null && calleeExpr.kind === 'Attr' && ctx.jitFuncs?.has(spelled)) {
    return {
      kind: 'Call',
      callee: { kind: 'self', name: spelled, bare: true },
      args: exact(args),
      kwargs: exact(kwargs),
      start: span.start,
      end: span.end,
    };
  }
  if (spelled === 'pl.submit') return makeSubmit(ctx, args, kwargs, span);
  if (spelled !== null && (spelled.startsWith('pl.') || spelled.startsWith('pld.'))) {
    const spec = opBySpelling(spelled);
    if (spec) {
      normaliseKnown(ctx, spec, args, kwargs);
      const callee: Callee = ctx.pool ? ctx.pool.op(spec.canonical, true) : { kind: 'op', name: spec.canonical, known: true };
      return { kind: 'Call', callee, args: exact(args), kwargs: exact(kwargs), start: span.start, end: span.end };
    }
    const callee: Callee = ctx.pool ? ctx.pool.op(spelled, false) : { kind: 'op', name: spelled, known: false };
    return { kind: 'Call', callee, args: exact(args), kwargs: exact(kwargs), start: span.start, end: span.end };
  }
  return {
    kind: 'Call',
    callee: { kind: 'other', expr: calleeExpr },
    args: exact(args),
    kwargs: exact(kwargs),
    start: span.start,
    end: span.end,
  };
}

/** PyPTO evaluates an f-string only as an argument of `pl.static_print` / `pl.static_assert`. */
const F_STRINGS = 'f-strings are not supported inside a @pl.program (but as an argument of pl.static_print / pl.static_assert)';

/** An f-string argument outside `pl.static_print` / `pl.static_assert` (which PyPTO evaluates at parse time) is PyPTO's error. */
function rejectFStrings(ctx: BuildCtx, args: readonly Expr[], kwargs: readonly Keyword[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.kind === 'Str' && a.fstring) ctx.report.unsupported(a, F_STRINGS);
  }
  for (let i = 0; i < kwargs.length; i++) {
    const v = kwargs[i]!.value;
    if (v.kind === 'Str' && v.fstring) ctx.report.unsupported(v, F_STRINGS);
  }
}

function makeSubmit(ctx: BuildCtx, args: Expr[], kwargs: Keyword[], span: Span): SubmitExpr {
  const first = args[0];
  if (first?.kind !== 'Attr' || first.value.kind !== 'Name' || first.value.id !== 'self') {
    return ctx.report.unsupported(first ?? span, 'the first argument of pl.submit must be the submitted function, written self.<name>');
  }
  let deps: Expr[] | null = null;
  let depsStart = -1;
  let depsEnd = -1;
  const rest: Keyword[] = [];
  for (const kw of kwargs) {
    if (kw.name === 'deps') {
      deps = listElts(ctx, kw.value, 'deps=');
      depsStart = kw.value.start;
      depsEnd = kw.value.end;
    } else rest.push(kw);
  }
  return {
    kind: 'Submit',
    func: first.attr,
    args: args.slice(1),
    kwargs: exact(rest),
    deps: deps && exact(deps),
    depsStart,
    depsEnd,
    start: span.start,
    end: span.end,
  };
}

// ---------------------------------------------------------------------------------------
// Types

function typeItems(index: Expr): Expr[] {
  return index.kind === 'Tuple' ? index.elts : [index];
}

function shapeOf(ctx: BuildCtx, e: Expr): { shape: Expr[]; shapeExpr?: Expr } {
  if (e.kind === 'List' || e.kind === 'Tuple') return { shape: e.elts };
  // A shape written as a name of a list constant (`pl.Tensor[SHAPE, pl.FP32]`).
  if (e.kind === 'Name') {
    const v = ctx.constants.get(e.id);
    if (Array.isArray(v) && v.every((x) => typeof x === 'number')) {
      return {
        shape: (v as number[]).map((n) => ({ kind: 'Int', value: n, start: e.start, end: e.end }) as Expr),
        shapeExpr: e,
      };
    }
  }
  return { shape: [], shapeExpr: e };
}

/** Converts an annotation expression into a TypeExpr (unknown forms become OpaqueType). */
export function toType(ctx: BuildCtx, e: Expr): TypeExpr {
  const span: Span = e;
  if (e.kind === 'Subscript') {
    const name = dotted(e.value);
    const items = typeItems(e.index);
    switch (name) {
      case 'pl.Tensor':
      case 'pld.DistributedTensor':
      case 'pl.DistributedTensor':
      case 'pl.Tile': {
        if (items.length < 2) break;
        const { shape, shapeExpr } = shapeOf(ctx, items[0]!);
        const extras = items.slice(2).filter((x) => !(x.kind === 'Str' && /^\s*window_buffer\s*=/.test(x.value)));
        if (name === 'pl.Tile') {
          return shapeExpr
            ? { kind: 'TileType', shape, shapeExpr, dtype: items[1]!, extras, start: span.start, end: span.end }
            : { kind: 'TileType', shape, dtype: items[1]!, extras, start: span.start, end: span.end };
        }
        const distributed = name !== 'pl.Tensor';
        return shapeExpr
          ? { kind: 'TensorType', distributed, shape, shapeExpr, dtype: items[1]!, extras, start: span.start, end: span.end }
          : { kind: 'TensorType', distributed, shape, dtype: items[1]!, extras, start: span.start, end: span.end };
      }
      case 'pl.Scalar':
        if (items.length === 1) return { kind: 'ScalarType', dtype: items[0]!, start: span.start, end: span.end };
        break;
      case 'pl.Array':
        if (items.length === 2) return { kind: 'ArrayType', size: items[0]!, dtype: items[1]!, start: span.start, end: span.end };
        break;
      case 'tuple':
      case 'Tuple':
      case 'pl.Tuple':
        return { kind: 'TupleType', elts: items.map((x) => toType(ctx, x)), start: span.start, end: span.end };
      default:
        break;
    }
  }
  return { kind: 'OpaqueType', expr: e, start: span.start, end: span.end };
}

/** A parameter annotation: `pl.Out[T]` / `pl.InOut[T]` give the direction, T the type. */
export function paramType(ctx: BuildCtx, e: Expr): { type: TypeExpr; direction: Direction } {
  if (e.kind === 'Subscript') {
    const name = dotted(e.value);
    if (name === 'pl.Out' || name === 'pl.InOut') {
      return { type: toType(ctx, e.index), direction: name === 'pl.Out' ? 'out' : 'inout' };
    }
    if (name === 'pl.In') return { type: toType(ctx, e.index), direction: 'in' };
  }
  return { type: toType(ctx, e), direction: 'in' };
}

// ---------------------------------------------------------------------------------------
// Statements

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

export interface DecoratorDesc {
  expr: Expr;
  span: Span;
}

export interface RawParam {
  name: string;
  nameSpan: Span;
  annotation: Expr | null;
  span: Span;
}

export interface DefHeadDesc {
  name: string;
  params: RawParam[];
  paramsSpan: Span;
  returns: Expr | null;
  start: number;
  span: Span;
}

const FUNCTION_KINDS: ReadonlySet<string> = new Set([
  'Opaque',
  'Orchestration',
  'InCore',
  'AIC',
  'AIV',
  'Group',
  'Spmd',
  'Inline',
  'Graph',
]);

const DSL_LOOPS: ReadonlySet<string> = new Set([
  'range',
  'parallel',
  'pipeline',
  'unroll',
  'pl.range',
  'pl.parallel',
  'pl.pipeline',
  'pl.unroll',
]);

/**
 * A list comprehension anywhere but a `deps=` list is rejected, as PyPTO does; so is a `deps=`
 * comprehension PyPTO cannot unroll at parse time: its iterable or a filter uses an IR variable
 * (a parameter or a name bound in the function), or its iterable is a DSL loop (`pl.range`).
 */
function checkComprehensions(ctx: BuildCtx, body: readonly Stmt[], params: readonly string[] = []): void {
  const allowed = new Set<CompExpr>();
  const visit = (e: Expr): void => {
    walkExpr(e, (x) => {
      if (x.kind === 'Submit' && x.deps) for (const d of x.deps) if (d.kind === 'Comp') allowed.add(d);
      if (x.kind === 'Comp' && !allowed.has(x)) {
        ctx.report.unsupported(
          x,
          'list comprehensions are only read in a deps= list (which PyPTO unrolls); write the list out, or a pl.range loop',
        );
      }
    });
  };
  const irVars = new Set(params);
  walkStmts(body, (s) => {
    if (s.kind === 'Scope' && s.deps) for (const d of s.deps) if (d.kind === 'Comp') allowed.add(d);
    if (s.kind === 'Assign') for (const t of s.targets) irVars.add(t.id);
    if (s.kind === 'For') for (const t of [s.target, ...s.iterArgs]) if (t) irVars.add(t.id);
    if (s.kind === 'Scope' && s.asName) irVars.add(s.asName.id);
    stmtParts(s, visit);
  });
  for (const c of allowed) {
    const it = c.iter;
    if (it.kind === 'Call' && it.callee.kind !== 'self') {
      const spelled = it.callee.kind === 'op' ? it.callee.name : calleeSpelling(it.callee);
      if (spelled !== null && spelled !== 'range' && DSL_LOOPS.has(spelled)) {
        ctx.report.unsupported(
          it,
          'a deps= comprehension iterable is a DSL loop (pl.range / pl.parallel / pl.pipeline) that PyPTO cannot unroll at parse time; use a Python range(...), or write arr[i] inside a pl.range body',
        );
      }
      if (it.callee.kind === 'op' && spelled === 'range') {
        ctx.report.unsupported(
          it,
          'a deps= comprehension iterable is a DSL loop (pl.range) that PyPTO cannot unroll at parse time; use a Python range(...)',
        );
      }
    }
    const uses = (e: Expr, except: string | null): string | null => {
      let found: string | null = null;
      walkExpr(e, (x) => {
        if (found === null && x.kind === 'Name' && x.id !== except && irVars.has(x.id)) found = x.id;
      });
      return found;
    };
    const v = uses(it, null);
    if (v !== null) {
      ctx.report.unsupported(
        it,
        `a deps= comprehension iterable depends on the IR variable '${v}': PyPTO cannot unroll it at parse time; use a Python range(...) over constants, or write arr[i] inside a pl.range body`,
      );
    }
    for (const f of c.conds) {
      const w = uses(f, c.target.id);
      if (w !== null)
        ctx.report.unsupported(
          f,
          `a deps= comprehension filter depends on the IR variable '${w}': PyPTO cannot unroll it at parse time; filters may use only constants and the loop variable`,
        );
    }
  }
}

/** `pl.Level.HOST` / `pl.Role.SubWorker` as `Level.HOST` / `Role.SubWorker` (Enum or attribute chain), else null. */
function enumText(e: Expr | undefined): string | null {
  if (!e) return null;
  if (e.kind === 'Enum') return `${e.enum}.${e.member}`;
  const d = dotted(e);
  if (d === null) return null;
  const parts = d.split('.');
  return parts.length >= 2 ? parts.slice(-2).join('.') : null;
}

/** True when the decorators declare a HOST SubWorker (`@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)`): its body is plain Python. */
export function isHostSubWorker(decorators: readonly DecoratorDesc[]): boolean {
  for (const d of decorators) {
    const e = d.expr;
    if (e.kind !== 'Call' || decoratorSpelling(e) !== 'pl.function') continue;
    const kw = (n: string): string | null => enumText(e.kwargs.find((k) => k.name === n)?.value);
    if (kw('level') === 'Level.HOST' && kw('role') === 'Role.SubWorker') return true;
  }
  return false;
}

/** The JIT decorator forms PyPTO defines (`python/pypto/jit/decorator.py`) and the function kind each gives. */
const JIT_FORMS: Record<string, { kind: FunctionKind; level: boolean; autoScope: boolean }> = {
  'pl.jit': { kind: 'Orchestration', level: false, autoScope: true },
  'pl.jit.host': { kind: 'Opaque', level: false, autoScope: true },
  'pl.jit.incore': { kind: 'InCore', level: true, autoScope: false },
  'pl.jit.inline': { kind: 'Inline', level: false, autoScope: true },
  'pl.jit.opaque': { kind: 'Opaque', level: false, autoScope: false },
  'pl.jit.extern': { kind: 'AIV', level: false, autoScope: false },
};

/** A decorator expression's dotted name (its callee's when called), PyPTO's module paths folded (`pypto.jit.jit` → `pl.jit`). */
export function decoratorSpelling(e: Expr): string | null {
  const d = e.kind === 'Call' ? calleeSpelling(e.callee) : dotted(e);
  return d === null ? null : foldDecoratorPath(d);
}

/** `e` (a decorator) spelled `name` (its folded spelling) when written through a PyPTO module path (`pypto.jit.jit`): what fmt prints. */
function foldedDecorator(e: Expr, name: string): Expr {
  const written = e.kind === 'Call' ? calleeSpelling(e.callee) : dotted(e);
  if (written === name) return e;
  const span = { start: e.start, end: e.end };
  let x: Expr = { kind: 'Name', id: 'pl', start: span.start, end: span.end };
  for (const part of name.split('.').slice(1)) x = makeAttr(x, part, span);
  if (e.kind !== 'Call') return x;
  return { ...e, callee: { kind: 'op', name, known: false } };
}

/** The JIT form of a decorator expression (`pl.jit.incore`, also called), or null. */
export function jitForm(e: Expr): string | null {
  const d = decoratorSpelling(e);
  return d !== null && Object.hasOwn(JIT_FORMS, d) ? d : null;
}

/** A JIT kernel's kind from its decorator, with PyPTO's decorator-time rejections. */
function jitKind(ctx: BuildCtx, d: DecoratorDesc, form: string): FunctionKind {
  const spec = JIT_FORMS[form]!;
  const e = d.expr;
  if (e.kind !== 'Call') return spec.kind;
  if (e.args.length > 0) ctx.report.unsupported(e.args[0]!, `@${form}(...) takes only keyword arguments`);
  const short = form.slice('pl.jit.'.length);
  for (const kw of e.kwargs) {
    if (form === 'pl.jit.extern') continue;
    if (kw.name === 'level') {
      if (!spec.level) ctx.report.unsupported(kw, `@${form} does not accept a level= argument; only @pl.jit.incore(level=...) does`);
    } else if (kw.name === 'auto_scope') {
      if (!spec.autoScope) {
        ctx.report.unsupported(
          kw,
          `@pl.jit.${short} does not accept an auto_scope= argument (auto_scope is only meaningful for the Orchestration entry, the HOST orchestrator, and inline sub-functions)`,
        );
      }
    } else ctx.report.unsupported(kw, `@${form} has no ${kw.name}= argument`);
  }
  if (form === 'pl.jit.extern') {
    const core = e.kwargs.find((k) => k.name === 'core_type')?.value;
    if (!core) return 'AIV';
    if (core.kind === 'Str' && (core.value === 'aic' || core.value === 'aiv' || core.value === 'mixed')) {
      return core.value === 'aic' ? 'AIC' : core.value === 'aiv' ? 'AIV' : 'Group';
    }
    if (core.kind === 'Name') {
      return ctx.report.unsupported(
        core,
        `@pl.jit.extern core_type is '${core.id}', whose value ptolog cannot know where it reads the kernel (a parameter or variable of the enclosing code): write the core type as a literal, 'aic', 'aiv' or 'mixed'`,
      );
    }
    return ctx.report.unsupported(core, "@pl.jit.extern core_type must be 'aic', 'aiv', or 'mixed'");
  }
  return spec.kind;
}

/**
 * Checks the `pl.func_attr` lines after the first statement as PyPTO's parser does: it merges the
 * leading lines, rejects a key declared twice and a `pl.func_attr` after another statement (located
 * errors here). ptolog reads the first line's dict; a further leading line is kept as an inert
 * statement, unless it declares `cache_policy` (which ptolog would not see: an error asking to move
 * it into the first line). Without this a rewrite of the attribute would not be idempotent.
 */
function checkFurtherFuncAttrs(ctx: BuildCtx, attrs: DictExpr | null, body: readonly Stmt[]): void {
  const keys = new Set((attrs?.entries ?? []).flatMap((e) => (e.key.kind === 'Str' ? [e.key.value] : [])));
  let prologue = attrs !== null;
  for (let i = 0; i < body.length; i++) {
    const s = body[i]!;
    const isAttr = s.kind === 'ExprStmt' && s.value.kind === 'Call' && calleeSpelling(s.value.callee) === 'pl.func_attr';
    if (!isAttr) {
      prologue = false;
      continue;
    }
    if (!prologue)
      ctx.report.unsupported(s, 'pl.func_attr() must appear before every other statement of the function (PyPTO rejects it here)');
    const d = s.kind === 'ExprStmt' && s.value.kind === 'Call' ? s.value.args[0] : undefined;
    for (const e of d?.kind === 'Dict' ? d.entries : []) {
      if (e.key.kind !== 'Str') continue;
      if (keys.has(e.key.value)) {
        ctx.report.unsupported(
          s,
          `duplicate function attribute '${e.key.value}' in pl.func_attr({...}) (PyPTO rejects it: each attribute may be declared only once)`,
        );
      }
      if (e.key.value === 'cache_policy') {
        ctx.report.unsupported(
          e.key,
          'ptolog reads cache_policy from the first pl.func_attr({...}) line only: move this entry into it (PyPTO merges the lines)',
        );
      }
      keys.add(e.key.value);
    }
  }
}

/**
 * Builds a function from its decorators, signature and body (kind, directions, `pl.func_attr`).
 * `jit`: a module-level JIT kernel (no `self`; its decorator is a `@pl.jit...` form).
 * A method's `self` is optional (PyPTO strips it when present) and forbidden on a HOST SubWorker.
 * `mayHoldComprehension` false: the body's text holds no comprehension (its checks are skipped).
 */
export function makeFunction(
  ctx: BuildCtx,
  decorators: DecoratorDesc[],
  head: DefHeadDesc,
  rawBody: Stmt[],
  jit = false,
  hostSource: string[] | null = null,
  mayHoldComprehension = true,
): FunctionDef {
  let funcKind: FunctionKind = 'Opaque';
  let decoratorKwargs: Keyword[] = [];
  let bareDecorator = false;
  let found = false;
  let jitExpr: Expr | undefined;
  for (const d of decorators) {
    const e = d.expr;
    if (jit && jitForm(e) !== null) {
      const form = jitForm(e)!;
      if (jitExpr === undefined) {
        jitExpr = foldedDecorator(e, form);
        funcKind = jitKind(ctx, d, form);
        found = true;
        continue;
      }
      ctx.report.unsupported(
        d.span,
        'a JIT kernel takes exactly one @pl.jit decorator (@pl.jit, @pl.jit.host, @pl.jit.incore, @pl.jit.inline, @pl.jit.opaque or @pl.jit.extern(...))',
      );
    }
    // A module-level `@pl.inline` helper: PyPTO's InlineFunctions pass expands it at its call sites.
    if (jit && e.kind !== 'Call' && decoratorSpelling(e) === 'pl.inline' && jitExpr === undefined) {
      jitExpr = foldedDecorator(e, 'pl.inline');
      funcKind = 'Inline';
      found = true;
      continue;
    }
    if (e.kind !== 'Call' && decoratorSpelling(e) === 'pl.function') {
      bareDecorator = true;
      found = true;
      continue;
    }
    if (e.kind === 'Call' && decoratorSpelling(e) === 'pl.function') {
      found = true;
      const typeArg = e.args[0] ?? e.kwargs.find((k) => k.name === 'type')?.value;
      if (e.args.length > 1) ctx.report.unsupported(e.args[1]!, '@pl.function takes only keyword arguments');
      decoratorKwargs = e.kwargs.filter((k) => k.name !== 'type');
      if (typeArg) {
        const v = intToEnum(typeArg, 'FunctionType');
        if (v.kind === 'Enum' && v.enum === 'FunctionType' && FUNCTION_KINDS.has(v.member)) funcKind = v.member as FunctionKind;
        else ctx.report.unsupported(typeArg, 'type= must be a pl.FunctionType member, e.g. pl.FunctionType.InCore');
      }
      continue;
    }
    ctx.report.unsupported(d.span, 'only @pl.function may decorate a function of a @pl.program');
  }
  if (!found) ctx.report.unsupported(head.span, 'a function of a @pl.program needs a @pl.function decorator');
  const first = head.params[0];
  const hasSelf = !jit && first !== undefined && first.name === 'self';
  if (hasSelf && first.annotation) {
    ctx.report.unsupported(first.span, "'self' cannot be annotated; write self, or leave it out");
  }
  if (hasSelf && isHostSubWorker(decorators)) {
    ctx.report.unsupported(
      first.span,
      `SubWorker function '${head.name}' must not declare 'self'; declare it as a self-contained function inside @pl.program (remove the 'self' parameter)`,
    );
  }
  const params: Param[] = head.params.slice(hasSelf ? 1 : 0).map((p) => {
    if (!p.annotation) return { name: p.name, type: null, direction: 'in', start: p.span.start, end: p.span.end };
    const { type, direction } = paramType(ctx, p.annotation);
    return { name: p.name, type, direction, start: p.span.start, end: p.span.end };
  });
  let body = rawBody;
  const end = lastEnd(rawBody, head.span.end);
  // Python's docstring: only the body's first statement, when it is a string literal.
  let docstring: string | null = null;
  if (body[0]?.kind === 'ExprStmt' && body[0].value.kind === 'Str') {
    docstring = body[0].value.value;
    body = body.slice(1);
  }
  let attrs: DictExpr | null = null;
  const b0 = body[0];
  if (b0?.kind === 'ExprStmt' && b0.value.kind === 'Call' && calleeSpelling(b0.value.callee) === 'pl.func_attr') {
    const a = b0.value.args[0];
    if (b0.value.args.length !== 1 || b0.value.kwargs.length > 0 || a?.kind !== 'Dict') {
      ctx.report.unsupported(b0.value, 'pl.func_attr takes one dict, e.g. pl.func_attr({"cache_policy": [(1, 1)]})');
    }
    attrs = normalizeCachePolicyAttr(a);
    body = body.slice(1);
  }
  checkFurtherFuncAttrs(ctx, attrs, body);
  // A walk of every expression of the body: skipped when its text cannot hold a comprehension.
  if (mayHoldComprehension)
    checkComprehensions(
      ctx,
      body,
      head.params.map((p) => p.name),
    );
  const b1 = body[0];
  const external = body.length === 1 && b1?.kind === 'ExprStmt' && b1.value.kind === 'Name' && b1.value.id === '...';
  if (external) body = [];
  const start = decorators.length > 0 ? decorators[0]!.span.start : head.start;
  const f: FunctionDef = {
    kind: 'Function',
    name: head.name,
    funcKind,
    decoratorKwargs,
    bareDecorator,
    params,
    returns: head.returns ? toType(ctx, head.returns) : null,
    docstring,
    attrs,
    body,
    start,
    end,
  };
  if (jitExpr) f.jit = jitExpr;
  if (!jit && !hasSelf) f.noSelf = true;
  // A standalone module-level `@pl.function` (no JIT decorator) prints without self too.
  if (jit && !jitExpr) f.noSelf = true;
  if (external) f.external = true;
  if (hostSource) f.hostSource = hostSource;
  return f;
}

/**
 * `pl.func_attr({"cache_policy": [(i, p), ...]})` carries integer policies (the attr's payload
 * is `vector<pair<int, int>>`): `pl.CachePolicy.BYPASS` there reads as `1`, so both spellings
 * are the same IR and print the same.
 */
function normalizeCachePolicyAttr(d: DictExpr): DictExpr {
  for (const entry of d.entries) {
    if (entry.key.kind !== 'Str' || entry.key.value !== 'cache_policy' || entry.value.kind !== 'List') continue;
    for (const pair of entry.value.elts) {
      if (pair.kind !== 'Tuple' || pair.elts.length !== 2) continue;
      const p = pair.elts[1]!;
      if (p.kind === 'Enum' && p.enum === 'CachePolicy') {
        const v = ENUMS['CachePolicy']!.members[p.member];
        if (v !== undefined) pair.elts[1] = { kind: 'Int', value: v, start: p.start, end: p.end };
      }
    }
  }
  return d;
}
