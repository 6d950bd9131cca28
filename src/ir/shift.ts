/**
 * Copies of IR statements with every span moved, for the frontend's cache of repeated statement
 * groups. Each node is copied by an object literal of its kind (a generic copy through one
 * spread would see every shape at one site and give V8's slower, larger objects: a separate
 * property array per node), arrays at their exact size, and callees without a span shared.
 */
import type {
  AssignStmt, Callee, Expr, Keyword, NameExpr, Span, Stmt, TupleExpr, TypeExpr,
} from './nodes.js';
import { empty } from './compact.js';

/** `stmts` copied with every span (and deps span) moved by `delta`. */
export function shiftStmts(stmts: readonly Stmt[], delta: number): Stmt[] {
  return stmts.length === 0 ? empty() : stmts.map((s) => shiftStmt(s, delta));
}

function sp(s: Span, d: number): Span {
  return { start: s.start + d, end: s.end + d };
}

function exprs(xs: readonly Expr[], d: number): Expr[] {
  return xs.length === 0 ? empty() : xs.map((x) => shiftExpr(x, d));
}

function names(xs: readonly NameExpr[], d: number): NameExpr[] {
  return xs.map((x) => ({ kind: 'Name', id: x.id, span: sp(x.span, d) }));
}

function keywords(xs: readonly Keyword[], d: number): Keyword[] {
  return xs.length === 0 ? empty() : xs.map((k) => ({ name: k.name, value: shiftExpr(k.value, d), span: sp(k.span, d) }));
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
      return { kind: 'Name', id: e.id, span: sp(e.span, d) };
    case 'Int':
      return { kind: 'Int', value: e.value, span: sp(e.span, d) };
    case 'Float':
      return { kind: 'Float', value: e.value, text: e.text, span: sp(e.span, d) };
    case 'Bool':
      return { kind: 'Bool', value: e.value, span: sp(e.span, d) };
    case 'None':
      return { kind: 'None', span: sp(e.span, d) };
    case 'Str':
      return { kind: 'Str', value: e.value, span: sp(e.span, d) };
    case 'List':
      return { kind: 'List', elts: exprs(e.elts, d), span: sp(e.span, d) };
    case 'Tuple':
      return tuple(e, d);
    case 'Dict':
      return { kind: 'Dict', entries: e.entries.map((x) => ({ key: shiftExpr(x.key, d), value: shiftExpr(x.value, d) })), span: sp(e.span, d) };
    case 'Attr':
      return { kind: 'Attr', value: shiftExpr(e.value, d), attr: e.attr, span: sp(e.span, d) };
    case 'Enum':
      return { kind: 'Enum', module: e.module, enum: e.enum, member: e.member, span: sp(e.span, d) };
    case 'Subscript':
      return { kind: 'Subscript', value: shiftExpr(e.value, d), index: shiftExpr(e.index, d), span: sp(e.span, d) };
    case 'Slice':
      return { kind: 'Slice', lower: orNull(e.lower, (x) => shiftExpr(x, d)), upper: orNull(e.upper, (x) => shiftExpr(x, d)), span: sp(e.span, d) };
    case 'Comp':
      return {
        kind: 'Comp', elt: shiftExpr(e.elt, d), target: { kind: 'Name', id: e.target.id, span: sp(e.target.span, d) },
        iter: shiftExpr(e.iter, d), conds: exprs(e.conds, d), span: sp(e.span, d),
      };
    case 'Unary':
      return { kind: 'Unary', op: e.op, operand: shiftExpr(e.operand, d), span: sp(e.span, d) };
    case 'Binary':
      return { kind: 'Binary', op: e.op, left: shiftExpr(e.left, d), right: shiftExpr(e.right, d), span: sp(e.span, d) };
    case 'Call':
      return { kind: 'Call', callee: callee(e.callee, d), args: exprs(e.args, d), kwargs: keywords(e.kwargs, d), span: sp(e.span, d) };
    case 'Submit':
      return {
        kind: 'Submit', func: e.func, args: exprs(e.args, d), kwargs: keywords(e.kwargs, d),
        deps: orNull(e.deps, (x) => exprs(x, d)), depsSpan: orNull(e.depsSpan, (x) => sp(x, d)), span: sp(e.span, d),
      };
  }
}

function tuple(e: TupleExpr, d: number): TupleExpr {
  return { kind: 'Tuple', elts: exprs(e.elts, d), span: sp(e.span, d) };
}

function shiftType(t: TypeExpr, d: number): TypeExpr {
  switch (t.kind) {
    case 'TensorType': {
      const shape = exprs(t.shape, d);
      return t.shapeExpr
        ? { kind: 'TensorType', distributed: t.distributed, shape, shapeExpr: shiftExpr(t.shapeExpr, d), dtype: shiftExpr(t.dtype, d), extras: exprs(t.extras, d), span: sp(t.span, d) }
        : { kind: 'TensorType', distributed: t.distributed, shape, dtype: shiftExpr(t.dtype, d), extras: exprs(t.extras, d), span: sp(t.span, d) };
    }
    case 'TileType': {
      const shape = exprs(t.shape, d);
      return t.shapeExpr
        ? { kind: 'TileType', shape, shapeExpr: shiftExpr(t.shapeExpr, d), dtype: shiftExpr(t.dtype, d), extras: exprs(t.extras, d), span: sp(t.span, d) }
        : { kind: 'TileType', shape, dtype: shiftExpr(t.dtype, d), extras: exprs(t.extras, d), span: sp(t.span, d) };
    }
    case 'ScalarType':
      return { kind: 'ScalarType', dtype: shiftExpr(t.dtype, d), span: sp(t.span, d) };
    case 'ArrayType':
      return { kind: 'ArrayType', size: shiftExpr(t.size, d), dtype: shiftExpr(t.dtype, d), span: sp(t.span, d) };
    case 'TupleType':
      return { kind: 'TupleType', elts: t.elts.map((x) => shiftType(x, d)), span: sp(t.span, d) };
    case 'OpaqueType':
      return { kind: 'OpaqueType', expr: shiftExpr(t.expr, d), span: sp(t.span, d) };
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
      // Keys in the order the builder writes them (makeAssign): sliceIndex before span, targetPattern last.
      const a: AssignStmt = s.sliceIndex === undefined
        ? { kind: 'Assign', targets, tupleTarget: s.tupleTarget, annotation, value, span: sp(s.span, d) }
        : { kind: 'Assign', targets, tupleTarget: s.tupleTarget, annotation, value, sliceIndex: shiftExpr(s.sliceIndex, d), span: sp(s.span, d) };
      if (s.targetPattern !== undefined) a.targetPattern = tuple(s.targetPattern, d);
      return a;
    }
    case 'ExprStmt':
      return { kind: 'ExprStmt', value: shiftExpr(s.value, d), span: sp(s.span, d) };
    case 'Return':
      return { kind: 'Return', value: orNull(s.value, (x) => shiftExpr(x, d)), span: sp(s.span, d) };
    case 'Pass':
      return { kind: 'Pass', span: sp(s.span, d) };
    case 'Break':
      return { kind: 'Break', span: sp(s.span, d) };
    case 'Continue':
      return { kind: 'Continue', span: sp(s.span, d) };
    case 'If':
      return { kind: 'If', cond: shiftExpr(s.cond, d), then: shiftStmts(s.then, d), orelse: shiftStmts(s.orelse, d), isElif: s.isElif, span: sp(s.span, d) };
    case 'While':
      return { kind: 'While', cond: shiftExpr(s.cond, d), body: shiftStmts(s.body, d), span: sp(s.span, d) };
    case 'For':
      return {
        kind: 'For', loopKind: s.loopKind, target: s.target && names([s.target], d)[0]!, iterArgs: names(s.iterArgs, d),
        args: exprs(s.args, d), kwargs: keywords(s.kwargs, d), initValues: exprs(s.initValues, d),
        cond: orNull(s.cond, (x) => shiftExpr(x, d)), body: shiftStmts(s.body, d), span: sp(s.span, d),
      };
    case 'Scope':
      return {
        kind: 'Scope', scope: s.scope, args: exprs(s.args, d), kwargs: keywords(s.kwargs, d),
        deps: orNull(s.deps, (x) => exprs(x, d)), depsSpan: orNull(s.depsSpan, (x) => sp(x, d)),
        asName: s.asName && names([s.asName], d)[0]!, body: shiftStmts(s.body, d), span: sp(s.span, d),
      };
  }
}
