/**
 * IR builders of functions: decorators (`@pl.function`, the `@pl.jit` forms), parameters,
 * `pl.func_attr`, and the checks PyPTO makes when it reads a function (comprehensions only in
 * `deps=`).
 *
 * Every builder is given a `Reporter` that throws a located `unsupported-construct` (or
 * `syntax-error`) diagnostic.
 */

import { dotted } from '../ir/dotted.js';
import type { CallExpr, CompExpr, DictExpr, Expr, ExprStmt, FunctionDef, FunctionKind, Keyword, Param, Span, Stmt } from '../ir/nodes.js';
import { ENUMS, FUNC_ATTR_INT_ENUMS } from '../ir/ops.js';
import { stmtParts, walkExpr, walkStmts } from '../ir/visit.js';
import { type BuildCtx, calleeSpelling, intToEnum, makeAttr } from './build-expr.js';
import { lastEnd } from './build-stmt.js';
import { paramType, toType } from './build-types.js';
import { foldDecoratorPath } from './decorators.js';

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

/** Attributes PyPTO's parser reads from the decorator only, before the body: it rejects them in pl.func_attr (ast_parser.py `_DECORATOR_ONLY_FUNC_ATTRS`). */
const DECORATOR_ONLY_ATTRS: ReadonlySet<string> = new Set(['auto_scope', 'external_source']);
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

/** True when `s` is a `pl.func_attr(...)` statement. */
function isFuncAttrStmt(s: Stmt | undefined): s is ExprStmt & { value: CallExpr } {
  return s?.kind === 'ExprStmt' && s.value.kind === 'Call' && calleeSpelling(s.value.callee) === 'pl.func_attr';
}

/**
 * Reads the `pl.func_attr({...})` prologue as PyPTO's parser does: every leading line (after the
 * docstring) is merged into the function's attributes, whatever keys they hold. Located errors
 * where PyPTO rejects: a line that is not one dict, a key that is not a string literal, a key
 * declared twice (in one line or across lines), a `pl.func_attr` after another statement.
 * Returns the lines' dicts and the body after them.
 */
function readFuncAttrs(ctx: BuildCtx, body: Stmt[]): { attrs: DictExpr[]; rest: Stmt[] } {
  const attrs: DictExpr[] = [];
  const keys = new Set<string>();
  let n = 0;
  for (; n < body.length; n++) {
    const s = body[n];
    if (!isFuncAttrStmt(s)) break;
    const d = s.value.args[0];
    if (s.value.args.length !== 1 || s.value.kwargs.length > 0 || d?.kind !== 'Dict') {
      return ctx.report.unsupported(s.value, 'pl.func_attr takes one dict, e.g. pl.func_attr({"split": 2})');
    }
    for (const e of d.entries) {
      if (e.key.kind !== 'Str')
        ctx.report.unsupported(e.key, 'a pl.func_attr({...}) key must be a string literal (PyPTO rejects any other)');
      if (keys.has(e.key.value)) {
        ctx.report.unsupported(
          s,
          `duplicate function attribute '${e.key.value}' in pl.func_attr({...}) (PyPTO rejects it: each attribute may be declared only once)`,
        );
      }
      keys.add(e.key.value);
      if (e.key.kind === 'Str' && DECORATOR_ONLY_ATTRS.has(e.key.value)) {
        ctx.report.unsupported(
          e.key,
          `'${e.key.value}' cannot be set with pl.func_attr() (PyPTO rejects it): pass it as the ${e.key.value}= keyword of @pl.function(...)`,
        );
      }
    }
    attrs.push(intEnumsAsInts(d));
  }
  const rest = body.slice(n);
  for (const s of rest) {
    if (isFuncAttrStmt(s))
      ctx.report.unsupported(s, 'pl.func_attr() must appear before every other statement of the function (PyPTO rejects it here)');
  }
  return { attrs, rest };
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
  const prologue = readFuncAttrs(ctx, body);
  const attrs = prologue.attrs;
  body = prologue.rest;
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
 * An entry whose payload stores an enum's members as integers (`frontend_attr_int_enum` in the op
 * catalog) reads each member of that enum in its value as the integer: both spellings are the
 * same IR and print the same.
 */
function intEnumsAsInts(d: DictExpr): DictExpr {
  for (const entry of d.entries) {
    const e = entry.key.kind === 'Str' ? FUNC_ATTR_INT_ENUMS.get(entry.key.value) : undefined;
    if (e !== undefined) entry.value = enumsAsInts(entry.value, e);
  }
  return d;
}

/** `x` with every member of enum `e` among its list and tuple elements (at any depth) read as its integer. */
function enumsAsInts(x: Expr, e: string): Expr {
  if (x.kind === 'Enum' && x.enum === e) {
    const v = ENUMS[e]?.members[x.member];
    return v === undefined ? x : { kind: 'Int', value: v, start: x.start, end: x.end };
  }
  if (x.kind === 'List' || x.kind === 'Tuple') for (let i = 0; i < x.elts.length; i++) x.elts[i] = enumsAsInts(x.elts[i]!, e);
  return x;
}
