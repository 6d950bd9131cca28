/**
 * IR builders of expressions: the Reporter and BuildCtx every builder takes, attribute and
 * enum literals, names read through the module's imports, calls normalised through the op
 * table, and `pl.submit`.
 *
 * Every builder is given a `Reporter` that throws a located `unsupported-construct` (or
 * `syntax-error`) diagnostic.
 */

import { exact, type InternPool } from '../ir/compact.js';
import { dotted } from '../ir/dotted.js';
import type { Callee, ConstValue, EnumExpr, Expr, Keyword, Span, SubmitExpr } from '../ir/nodes.js';
import { DATA_TYPES, ENUMS, type OpSpec, opBySpelling } from '../ir/ops.js';

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

/** The items of list or tuple `e` (an argument named `what`; a deps= comprehension is one item); anything else is reported. */
export function listElts(ctx: BuildCtx, e: Expr, what: string): Expr[] {
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
export const F_STRINGS = 'f-strings are not supported inside a @pl.program (but as an argument of pl.static_print / pl.static_assert)';

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
