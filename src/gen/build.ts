/**
 * Terse constructors of IR nodes with zero spans, for generators, tests and synthesised
 * code. They build exactly the normalised shapes the frontend produces (known ops by
 * canonical name, enum parameters as `Enum` nodes).
 */
import type {
  AssignStmt,
  BinaryOp,
  CallExpr,
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
  Program,
  ScopeKind,
  ScopeStmt,
  Span,
  Stmt,
  SubmitExpr,
  TypeExpr,
  UnaryOp,
} from '../ir/nodes.js';
import { ENUMS, opByCanonical, opBySpelling } from '../ir/ops.js';

export const NO_SPAN: Span = { start: 0, end: 0 };

export const name = (id: string): NameExpr => ({ kind: 'Name', id, start: 0, end: 0 });
export const int = (value: number): Expr => ({ kind: 'Int', value, start: 0, end: 0 });
export const float = (text: string): Expr => ({ kind: 'Float', value: Number(text), text, start: 0, end: 0 });
export const bool = (value: boolean): Expr => ({ kind: 'Bool', value, start: 0, end: 0 });
export const none = (): Expr => ({ kind: 'None', start: 0, end: 0 });
export const str = (value: string): Expr => ({ kind: 'Str', value, start: 0, end: 0 });
export const list = (...elts: Expr[]): Expr => ({ kind: 'List', elts, start: 0, end: 0 });
export const tuple = (...elts: Expr[]): Expr => ({ kind: 'Tuple', elts, start: 0, end: 0 });
export const attr = (value: Expr, a: string): Expr => ({ kind: 'Attr', value, attr: a, start: 0, end: 0 });
export const sub = (value: Expr, index: Expr): Expr => ({ kind: 'Subscript', value, index, start: 0, end: 0 });
export const unary = (op: UnaryOp, operand: Expr): Expr => ({ kind: 'Unary', op, operand, start: 0, end: 0 });
export const bin = (op: BinaryOp, left: Expr, right: Expr): Expr => ({ kind: 'Binary', op, left, right, start: 0, end: 0 });
export const kw = (n: string, value: Expr): Keyword => ({ name: n, value, start: 0, end: 0 });
export const slice = (lower: Expr | null, upper: Expr | null): Expr => ({ kind: 'Slice', lower, upper, start: 0, end: 0 });
/** `[elt for target in iter if c...]` (read only in `deps=`). */
export const comp = (elt: Expr, target: string, iter: Expr, conds: Expr[] = []): Expr => ({
  kind: 'Comp',
  elt,
  target: name(target),
  iter,
  conds,
  start: 0,
  end: 0,
});
/** `dst[index] = src` with slices in `index`, as the frontend reads it: `dst = pl.assemble(dst, src, offsets)`. */
export function sliceWrite(dst: string, index: Expr, src: Expr): Stmt {
  const items = index.kind === 'Tuple' ? index.elts : [index];
  const offsets = items.map((it) => structuredClone(it.kind !== 'Slice' ? it : (it.lower ?? int(0))));
  return {
    kind: 'Assign',
    targets: [name(dst)],
    tupleTarget: false,
    annotation: null,
    value: call('assemble', [name(dst), src, list(...offsets)]),
    sliceIndex: index,
    start: 0,
    end: 0,
  };
}
/** `(a, b), tid = value`: nested tuple targets (`pattern` of names), flattened into `targets`. */
export function assignNested(pattern: Expr, value: Expr): Stmt {
  const flat: string[] = [];
  const walk = (e: Expr): void => {
    if (e.kind === 'Tuple') e.elts.forEach(walk);
    else if (e.kind === 'Name') flat.push(e.id);
  };
  walk(pattern);
  return {
    kind: 'Assign',
    targets: flat.map(name),
    tupleTarget: true,
    annotation: null,
    value,
    targetPattern: pattern as Extract<Expr, { kind: 'Tuple' }>,
    start: 0,
    end: 0,
  };
}
export const dict = (...entries: [Expr, Expr][]): Expr => ({
  kind: 'Dict',
  entries: entries.map(([key, value]) => ({ key, value })),
  start: 0,
  end: 0,
});

/** An enum literal; `enumName` `DataType` gives `pl.FP32`-style data types. */
export function enumLit(enumName: string, member: string): EnumExpr {
  const module = enumName === 'DataType' ? 'pl' : (ENUMS[enumName]?.module ?? 'pl');
  return { kind: 'Enum', module, enum: enumName, member, start: 0, end: 0 };
}
export const dtype = (member: string): EnumExpr => enumLit('DataType', member);

/** A call of an op by any spelling (`pl.store`, `tile.store`, `pl.foo`); unknown ops keep it. */
export function call(spelling: string, args: Expr[] = [], kwargs: Keyword[] = []): CallExpr {
  const spec = opBySpelling(spelling) ?? opByCanonical(spelling);
  return {
    kind: 'Call',
    callee: spec ? { kind: 'op', name: spec.canonical, known: true } : { kind: 'op', name: spelling, known: false },
    args,
    kwargs,
    start: 0,
    end: 0,
  };
}
export const selfCall = (fn: string, args: Expr[] = [], kwargs: Keyword[] = []): CallExpr => ({
  kind: 'Call',
  callee: { kind: 'self', name: fn },
  args,
  kwargs,
  start: 0,
  end: 0,
});
export const otherCall = (callee: Expr, args: Expr[] = [], kwargs: Keyword[] = []): CallExpr => ({
  kind: 'Call',
  callee: { kind: 'other', expr: callee },
  args,
  kwargs,
  start: 0,
  end: 0,
});
export const submit = (func: string, args: Expr[], deps: Expr[] | null = null, kwargs: Keyword[] = []): SubmitExpr => ({
  kind: 'Submit',
  func,
  args,
  kwargs,
  deps,
  depsStart: deps ? 0 : -1,
  depsEnd: deps ? 0 : -1,
  start: 0,
  end: 0,
});

// Types
export const tensor = (shape: Expr[], dt: Expr, distributed = false, extras: Expr[] = []): TypeExpr => ({
  kind: 'TensorType',
  distributed,
  shape,
  dtype: dt,
  extras,
  start: 0,
  end: 0,
});
export const tile = (shape: Expr[], dt: Expr, extras: Expr[] = []): TypeExpr => ({
  kind: 'TileType',
  shape,
  dtype: dt,
  extras,
  start: 0,
  end: 0,
});
export const scalar = (dt: Expr): TypeExpr => ({ kind: 'ScalarType', dtype: dt, start: 0, end: 0 });
export const arrayT = (size: Expr, dt: Expr): TypeExpr => ({ kind: 'ArrayType', size, dtype: dt, start: 0, end: 0 });
export const tupleT = (...elts: TypeExpr[]): TypeExpr => ({ kind: 'TupleType', elts, start: 0, end: 0 });
export const param = (n: string, type: TypeExpr | null, direction: Direction = 'in'): Param => ({
  name: n,
  type,
  direction,
  start: 0,
  end: 0,
});

// Statements
export const assign = (target: string, value: Expr, annotation: TypeExpr | null = null): AssignStmt => ({
  kind: 'Assign',
  targets: [name(target)],
  tupleTarget: false,
  annotation,
  value,
  start: 0,
  end: 0,
});
export const assignTuple = (targets: string[], value: Expr): AssignStmt => ({
  kind: 'Assign',
  targets: targets.map(name),
  tupleTarget: true,
  annotation: null,
  value,
  start: 0,
  end: 0,
});
/** `arr[i] = v`, i.e. `arr = pl.array.update_element(arr, i, v)`. */
export const elementWrite = (arr: string, index: Expr, value: Expr): AssignStmt =>
  assign(arr, call('array.update_element', [name(arr), index, value]));
export const exprStmt = (value: Expr): Stmt => ({ kind: 'ExprStmt', value, start: 0, end: 0 });
export const ret = (value: Expr | null = null): Stmt => ({ kind: 'Return', value, start: 0, end: 0 });
export const pass = (): Stmt => ({ kind: 'Pass', start: 0, end: 0 });
export const brk = (): Stmt => ({ kind: 'Break', start: 0, end: 0 });
export const cont = (): Stmt => ({ kind: 'Continue', start: 0, end: 0 });
export const ifs = (cond: Expr, then: Stmt[], orelse: Stmt[] = []): IfStmt => ({
  kind: 'If',
  cond,
  then,
  orelse,
  isElif: orelse.length === 1 && orelse[0]!.kind === 'If',
  start: 0,
  end: 0,
});
export const whiles = (cond: Expr, body: Stmt[]): Stmt => ({ kind: 'While', cond, body, start: 0, end: 0 });

export interface ForOpts {
  iterArgs?: string[];
  initValues?: Expr[];
  kwargs?: Keyword[];
  cond?: Expr | null;
}
export const fors = (loopKind: LoopKind, target: string | null, args: Expr[], body: Stmt[], o: ForOpts = {}): ForStmt => ({
  kind: 'For',
  loopKind,
  target: target === null ? null : name(target),
  iterArgs: (o.iterArgs ?? []).map(name),
  args,
  kwargs: o.kwargs ?? [],
  initValues: o.initValues ?? [],
  cond: o.cond ?? null,
  body,
  start: 0,
  end: 0,
});

export interface ScopeOpts {
  args?: Expr[];
  kwargs?: Keyword[];
  deps?: Expr[] | null;
  asName?: string | null;
}
export const scope = (kind: ScopeKind, body: Stmt[], o: ScopeOpts = {}): ScopeStmt => ({
  kind: 'Scope',
  scope: kind,
  args: o.args ?? [],
  kwargs: o.kwargs ?? [],
  deps: o.deps ?? null,
  depsStart: o.deps ? 0 : -1,
  depsEnd: o.deps ? 0 : -1,
  asName: o.asName ? name(o.asName) : null,
  body,
  start: 0,
  end: 0,
});

export interface FunctionOpts {
  decoratorKwargs?: Keyword[];
  returns?: TypeExpr | null;
  attrs?: Expr | null;
  bareDecorator?: boolean;
  docstring?: string | null;
}
/** A function definition; Opaque functions get a bare decorator unless keywords are given. */
export function func(n: string, funcKind: FunctionKind, params: Param[], body: Stmt[], o: FunctionOpts = {}): FunctionDef {
  const attrs = o.attrs ?? null;
  if (attrs && attrs.kind !== 'Dict') throw new Error('func_attr must be a dict');
  return {
    kind: 'Function',
    name: n,
    funcKind,
    decoratorKwargs: o.decoratorKwargs ?? [],
    bareDecorator: o.bareDecorator ?? (funcKind === 'Opaque' && (o.decoratorKwargs ?? []).length === 0),
    params,
    returns: o.returns ?? null,
    docstring: o.docstring ?? null,
    attrs: attrs && attrs.kind === 'Dict' ? [attrs] : [],
    body,
    start: 0,
    end: 0,
  };
}
export const program = (n: string, functions: FunctionDef[]): Program => ({ kind: 'Program', name: n, functions, start: 0, end: 0 });
