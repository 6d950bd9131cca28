/**
 * Copies of IR statements with every span moved, for the frontend's cache of repeated statement
 * groups. Each node is copied by an object literal of its kind (a generic copy through one
 * spread would see every shape at one site and give V8's slower, larger objects: a separate
 * property array per node), arrays at their exact size, and callees without a span shared.
 */

import { empty } from './compact.js';
import type { AssignStmt, Callee, DictExpr, Expr, FunctionDef, Keyword, NameExpr, Stmt, TupleExpr, TypeExpr } from './nodes.js';

/** `stmts` copied with every span (and deps span) moved by `delta`. */
export function shiftStmts(stmts: readonly Stmt[], delta: number): Stmt[] {
  return stmts.length === 0 ? empty() : stmts.map((s) => shiftStmt(s, delta));
}

/** A deps span offset moved by `d` (-1, no deps list, stays). */
function at(offset: number, d: number): number {
  return offset < 0 ? offset : offset + d;
}

function exprs(xs: readonly Expr[], d: number): Expr[] {
  return xs.length === 0 ? empty() : xs.map((x) => shiftExpr(x, d));
}

function names(xs: readonly NameExpr[], d: number): NameExpr[] {
  return xs.map((x) => ({ kind: 'Name', id: x.id, start: x.start + d, end: x.end + d }));
}

function keywords(xs: readonly Keyword[], d: number): Keyword[] {
  return xs.length === 0 ? empty() : xs.map((k) => ({ name: k.name, value: shiftExpr(k.value, d), start: k.start + d, end: k.end + d }));
}

function orNull<T>(x: T | null, f: (y: T) => T): T | null {
  return x === null ? null : f(x);
}

function callee(c: Callee, d: number): Callee {
  if (c.kind === 'other') return { kind: 'other', expr: shiftExpr(c.expr, d) };
  return c.kind === 'op' && Object.isFrozen(c) ? c : { ...c };
}

function shiftExpr(e: Expr, d: number): Expr {
  switch (e.kind) {
    case 'Name':
      return { kind: 'Name', id: e.id, start: e.start + d, end: e.end + d };
    case 'Int':
      return { kind: 'Int', value: e.value, start: e.start + d, end: e.end + d };
    case 'Float':
      return { kind: 'Float', value: e.value, text: e.text, start: e.start + d, end: e.end + d };
    case 'Bool':
      return { kind: 'Bool', value: e.value, start: e.start + d, end: e.end + d };
    case 'None':
      return { kind: 'None', start: e.start + d, end: e.end + d };
    case 'Str':
      return e.fstring
        ? { kind: 'Str', value: e.value, fstring: true, start: e.start + d, end: e.end + d }
        : { kind: 'Str', value: e.value, start: e.start + d, end: e.end + d };
    case 'List':
      return { kind: 'List', elts: exprs(e.elts, d), start: e.start + d, end: e.end + d };
    case 'Tuple':
      return tuple(e, d);
    case 'Dict':
      return {
        kind: 'Dict',
        entries: e.entries.map((x) => ({ key: shiftExpr(x.key, d), value: shiftExpr(x.value, d) })),
        start: e.start + d,
        end: e.end + d,
      };
    case 'Attr':
      return { kind: 'Attr', value: shiftExpr(e.value, d), attr: e.attr, start: e.start + d, end: e.end + d };
    case 'Enum':
      return { kind: 'Enum', module: e.module, enum: e.enum, member: e.member, start: e.start + d, end: e.end + d };
    case 'Subscript':
      return { kind: 'Subscript', value: shiftExpr(e.value, d), index: shiftExpr(e.index, d), start: e.start + d, end: e.end + d };
    case 'Slice':
      return {
        kind: 'Slice',
        lower: orNull(e.lower, (x) => shiftExpr(x, d)),
        upper: orNull(e.upper, (x) => shiftExpr(x, d)),
        start: e.start + d,
        end: e.end + d,
      };
    case 'Comp':
      return {
        kind: 'Comp',
        elt: shiftExpr(e.elt, d),
        target: { kind: 'Name', id: e.target.id, start: e.target.start + d, end: e.target.end + d },
        iter: shiftExpr(e.iter, d),
        conds: exprs(e.conds, d),
        start: e.start + d,
        end: e.end + d,
      };
    case 'Unary':
      return { kind: 'Unary', op: e.op, operand: shiftExpr(e.operand, d), start: e.start + d, end: e.end + d };
    case 'Binary':
      return { kind: 'Binary', op: e.op, left: shiftExpr(e.left, d), right: shiftExpr(e.right, d), start: e.start + d, end: e.end + d };
    case 'Call':
      return {
        kind: 'Call',
        callee: callee(e.callee, d),
        args: exprs(e.args, d),
        kwargs: keywords(e.kwargs, d),
        start: e.start + d,
        end: e.end + d,
      };
    case 'Submit':
      return {
        kind: 'Submit',
        func: e.func,
        args: exprs(e.args, d),
        kwargs: keywords(e.kwargs, d),
        deps: orNull(e.deps, (x) => exprs(x, d)),
        depsStart: at(e.depsStart, d),
        depsEnd: at(e.depsEnd, d),
        start: e.start + d,
        end: e.end + d,
      };
  }
}

function tuple(e: TupleExpr, d: number): TupleExpr {
  return { kind: 'Tuple', elts: exprs(e.elts, d), start: e.start + d, end: e.end + d };
}

function shiftType(t: TypeExpr, d: number): TypeExpr {
  switch (t.kind) {
    case 'TensorType': {
      const shape = exprs(t.shape, d);
      return t.shapeExpr
        ? {
            kind: 'TensorType',
            distributed: t.distributed,
            shape,
            shapeExpr: shiftExpr(t.shapeExpr, d),
            dtype: shiftExpr(t.dtype, d),
            extras: exprs(t.extras, d),
            start: t.start + d,
            end: t.end + d,
          }
        : {
            kind: 'TensorType',
            distributed: t.distributed,
            shape,
            dtype: shiftExpr(t.dtype, d),
            extras: exprs(t.extras, d),
            start: t.start + d,
            end: t.end + d,
          };
    }
    case 'TileType': {
      const shape = exprs(t.shape, d);
      return t.shapeExpr
        ? {
            kind: 'TileType',
            shape,
            shapeExpr: shiftExpr(t.shapeExpr, d),
            dtype: shiftExpr(t.dtype, d),
            extras: exprs(t.extras, d),
            start: t.start + d,
            end: t.end + d,
          }
        : { kind: 'TileType', shape, dtype: shiftExpr(t.dtype, d), extras: exprs(t.extras, d), start: t.start + d, end: t.end + d };
    }
    case 'ScalarType':
      return { kind: 'ScalarType', dtype: shiftExpr(t.dtype, d), start: t.start + d, end: t.end + d };
    case 'ArrayType':
      return { kind: 'ArrayType', size: shiftExpr(t.size, d), dtype: shiftExpr(t.dtype, d), start: t.start + d, end: t.end + d };
    case 'TupleType':
      return { kind: 'TupleType', elts: t.elts.map((x) => shiftType(x, d)), start: t.start + d, end: t.end + d };
    case 'OpaqueType':
      return { kind: 'OpaqueType', expr: shiftExpr(t.expr, d), start: t.start + d, end: t.end + d };
  }
}

function shiftStmt(s: Stmt, d: number): Stmt {
  const out = shiftBare(s, d);
  if (s.comments) out.comments = s.comments.slice();
  return out;
}

function shiftBare(s: Stmt, d: number): Stmt {
  switch (s.kind) {
    case 'Assign': {
      const targets = names(s.targets, d);
      const annotation = orNull(s.annotation, (x) => shiftType(x, d));
      const value = shiftExpr(s.value, d);
      // Keys in the order the builder writes them (makeAssign): sliceIndex before start/end, targetPattern last.
      const a: AssignStmt =
        s.sliceIndex === undefined
          ? { kind: 'Assign', targets, tupleTarget: s.tupleTarget, annotation, value, start: s.start + d, end: s.end + d }
          : {
              kind: 'Assign',
              targets,
              tupleTarget: s.tupleTarget,
              annotation,
              value,
              sliceIndex: shiftExpr(s.sliceIndex, d),
              start: s.start + d,
              end: s.end + d,
            };
      if (s.targetPattern !== undefined) a.targetPattern = tuple(s.targetPattern, d);
      return a;
    }
    case 'ExprStmt':
      return { kind: 'ExprStmt', value: shiftExpr(s.value, d), start: s.start + d, end: s.end + d };
    case 'Return':
      return { kind: 'Return', value: orNull(s.value, (x) => shiftExpr(x, d)), start: s.start + d, end: s.end + d };
    case 'Pass':
      return { kind: 'Pass', start: s.start + d, end: s.end + d };
    case 'Break':
      return { kind: 'Break', start: s.start + d, end: s.end + d };
    case 'Continue':
      return { kind: 'Continue', start: s.start + d, end: s.end + d };
    case 'If':
      return {
        kind: 'If',
        cond: shiftExpr(s.cond, d),
        then: shiftStmts(s.then, d),
        orelse: shiftStmts(s.orelse, d),
        isElif: s.isElif,
        start: s.start + d,
        end: s.end + d,
      };
    case 'While':
      return { kind: 'While', cond: shiftExpr(s.cond, d), body: shiftStmts(s.body, d), start: s.start + d, end: s.end + d };
    case 'For':
      return {
        kind: 'For',
        loopKind: s.loopKind,
        target: s.target && names([s.target], d)[0]!,
        iterArgs: names(s.iterArgs, d),
        args: exprs(s.args, d),
        kwargs: keywords(s.kwargs, d),
        initValues: exprs(s.initValues, d),
        cond: orNull(s.cond, (x) => shiftExpr(x, d)),
        body: shiftStmts(s.body, d),
        start: s.start + d,
        end: s.end + d,
      };
    case 'Scope':
      return {
        kind: 'Scope',
        scope: s.scope,
        args: exprs(s.args, d),
        kwargs: keywords(s.kwargs, d),
        deps: orNull(s.deps, (x) => exprs(x, d)),
        depsStart: at(s.depsStart, d),
        depsEnd: at(s.depsEnd, d),
        asName: s.asName && names([s.asName], d)[0]!,
        body: shiftStmts(s.body, d),
        start: s.start + d,
        end: s.end + d,
      };
  }
}

/**
 * `f` copied with every span moved by `delta`, without comments (for the frontend's memo of
 * functions parsed before: comments are attached to the copy afterwards).
 */
export function shiftFunction(f: FunctionDef, delta: number): FunctionDef {
  const d = delta;
  const out: FunctionDef = {
    kind: 'Function',
    name: f.name,
    funcKind: f.funcKind,
    decoratorKwargs: keywords(f.decoratorKwargs, d),
    bareDecorator: f.bareDecorator,
    params: f.params.map((p) => ({
      name: p.name,
      type: orNull(p.type, (x) => shiftType(x, d)),
      direction: p.direction,
      start: p.start + d,
      end: p.end + d,
    })),
    returns: orNull(f.returns, (x) => shiftType(x, d)),
    docstring: f.docstring,
    attrs: f.attrs.map((a) => shiftExpr(a, d) as DictExpr),
    body: f.body.length === 0 ? [] : f.body.map((s) => shiftBare(s, d)),
    start: f.start + d,
    end: f.end + d,
  };
  if (f.jit) out.jit = shiftExpr(f.jit, d);
  if (f.noSelf) out.noSelf = true;
  if (f.external) out.external = true;
  if (f.hostSource) out.hostSource = f.hostSource.slice();
  return out;
}
