/**
 * Small, allocation-light visitors over the IR: child statement bodies, the expressions a
 * statement holds directly, sub-expressions of an expression, and pre-order walks of a
 * function or program. Recursion depth follows nesting depth only (bodies and expression
 * trees), never the length of a body.
 */
import type { Expr, FunctionDef, Keyword, Program, Stmt, TypeExpr } from './nodes.js';
import { opByCanonical } from './ops.js';

/** The statement bodies nested directly in `s` (then/else, loop and scope bodies). */
export function childBodies(s: Stmt): Stmt[][] {
  switch (s.kind) {
    case 'If':
      return [s.then, s.orelse];
    case 'While':
    case 'For':
    case 'Scope':
      return [s.body];
    default:
      return [];
  }
}

/** The expressions and types a statement holds itself (not those of nested statements). */
export function stmtParts(s: Stmt, onExpr: (e: Expr) => void, onType?: (t: TypeExpr) => void): void {
  switch (s.kind) {
    case 'Assign':
      for (const t of s.targets) onExpr(t);
      if (s.annotation && onType) onType(s.annotation);
      onExpr(s.value);
      return;
    case 'ExprStmt':
      onExpr(s.value);
      return;
    case 'Return':
      if (s.value) onExpr(s.value);
      return;
    case 'If':
      onExpr(s.cond);
      return;
    case 'While':
      onExpr(s.cond);
      return;
    case 'For':
      if (s.target) onExpr(s.target);
      for (const n of s.iterArgs) onExpr(n);
      for (const a of s.args) onExpr(a);
      for (const k of s.kwargs) onExpr(k.value);
      for (const v of s.initValues) onExpr(v);
      if (s.cond) onExpr(s.cond);
      return;
    case 'Scope':
      for (const a of s.args) onExpr(a);
      for (const k of s.kwargs) onExpr(k.value);
      if (s.deps) for (const d of s.deps) onExpr(d);
      if (s.asName) onExpr(s.asName);
      return;
    default:
      return;
  }
}

/** The direct sub-expressions of `e`, in source order. */
export function subExprs(e: Expr): Expr[] {
  switch (e.kind) {
    case 'List':
    case 'Tuple':
      return e.elts;
    case 'Dict':
      return e.entries.flatMap((en) => [en.key, en.value]);
    case 'Attr':
      return [e.value];
    case 'Subscript':
      return [e.value, e.index];
    case 'Slice':
      return [...(e.lower ? [e.lower] : []), ...(e.upper ? [e.upper] : [])];
    case 'Comp':
      return [e.elt, e.target, e.iter, ...e.conds];
    case 'Unary':
      return [e.operand];
    case 'Binary':
      return [e.left, e.right];
    case 'Call': {
      const out: Expr[] = [];
      if (e.callee.kind === 'other') out.push(e.callee.expr);
      out.push(...e.args, ...kwValues(e.kwargs));
      return out;
    }
    case 'Submit':
      return [...e.args, ...kwValues(e.kwargs), ...(e.deps ?? [])];
    default:
      return [];
  }
}

function kwValues(ks: Keyword[]): Expr[] {
  return ks.map((k) => k.value);
}

/** The expressions a type holds (shape dims, dtype, extras, array size, opaque type). */
export function typeExprs(t: TypeExpr): Expr[] {
  switch (t.kind) {
    case 'TensorType':
    case 'TileType':
      return [...(t.shapeExpr ? [t.shapeExpr] : []), ...t.shape, t.dtype, ...t.extras];
    case 'ScalarType':
      return [t.dtype];
    case 'ArrayType':
      return [t.size, t.dtype];
    case 'TupleType':
      return t.elts.flatMap(typeExprs);
    case 'OpaqueType':
      return [t.expr];
  }
}

/** Calls `fn` on each direct sub-expression of `e`, in source order (no allocation). */
export function forEachSubExpr(e: Expr, fn: (e: Expr) => void): void {
  switch (e.kind) {
    case 'List':
    case 'Tuple':
      for (const x of e.elts) fn(x);
      return;
    case 'Dict':
      for (const en of e.entries) {
        fn(en.key);
        fn(en.value);
      }
      return;
    case 'Attr':
      fn(e.value);
      return;
    case 'Subscript':
      fn(e.value);
      fn(e.index);
      return;
    case 'Slice':
      if (e.lower) fn(e.lower);
      if (e.upper) fn(e.upper);
      return;
    case 'Comp':
      fn(e.elt);
      fn(e.target);
      fn(e.iter);
      for (const c of e.conds) fn(c);
      return;
    case 'Unary':
      fn(e.operand);
      return;
    case 'Binary':
      fn(e.left);
      fn(e.right);
      return;
    case 'Call':
      if (e.callee.kind === 'other') fn(e.callee.expr);
      for (const x of e.args) fn(x);
      for (const k of e.kwargs) fn(k.value);
      return;
    case 'Submit':
      for (const x of e.args) fn(x);
      for (const k of e.kwargs) fn(k.value);
      if (e.deps) for (const x of e.deps) fn(x);
      return;
    default:
      return;
  }
}

/** Pre-order walk of `e` and all its sub-expressions. */
export function walkExpr(e: Expr, fn: (e: Expr) => void): void {
  // An explicit stack: expressions as deep as Python accepts (~3,000 chained operators) must
  // not exhaust the JavaScript stack. Children are pushed in reverse to keep pre-order.
  const work: Expr[] = [e];
  const kids: Expr[] = [];
  while (work.length > 0) {
    const x = work.pop()!;
    fn(x);
    kids.length = 0;
    forEachSubExpr(x, (c) => kids.push(c));
    for (let i = kids.length - 1; i >= 0; i--) work.push(kids[i]!);
  }
}

/** Pre-order walk of the statements of a body, nested bodies included. */
export function walkStmts(body: readonly Stmt[], fn: (s: Stmt, depth: number) => void, depth = 0): void {
  for (const s of body) {
    fn(s, depth);
    for (const b of childBodies(s)) walkStmts(b, fn, depth + 1);
  }
}

export interface FunctionVisitor {
  stmt?: (s: Stmt, depth: number) => void;
  /** Called for every expression (pre-order), including those inside types. */
  expr?: (e: Expr) => void;
  type?: (t: TypeExpr) => void;
}

/** Walks a function: decorator keywords, parameter types, return type, attrs, then the body. */
export function walkFunction(f: FunctionDef, v: FunctionVisitor): void {
  const onExpr = (e: Expr): void => {
    if (v.expr) walkExpr(e, v.expr);
  };
  const onType = (t: TypeExpr): void => {
    v.type?.(t);
    for (const e of typeExprs(t)) onExpr(e);
  };
  for (const k of f.decoratorKwargs) onExpr(k.value);
  for (const p of f.params) if (p.type) onType(p.type);
  if (f.returns) onType(f.returns);
  for (const d of f.attrs) onExpr(d);
  walkBody(f.body, v);
}

/** Walks statements as walkFunction walks a body: each statement, then its expressions and types, nested bodies included. */
export function walkBody(body: readonly Stmt[], v: FunctionVisitor): void {
  const onExpr = (e: Expr): void => {
    if (v.expr) walkExpr(e, v.expr);
  };
  const onType = (t: TypeExpr): void => {
    v.type?.(t);
    for (const e of typeExprs(t)) onExpr(e);
  };
  walkStmts(body, (s, depth) => {
    v.stmt?.(s, depth);
    stmtParts(s, onExpr, onType);
  });
}

/** Walks every function of a program. */
export function walkProgram(p: Program, v: FunctionVisitor): void {
  for (const f of p.functions) walkFunction(f, v);
}

/** Every name (`Name` expression id) a program mentions, in types and expressions alike. */
export function namesUsed(programs: readonly Program[]): Set<string> {
  const names = new Set<string>();
  const visit = (e: Expr): void => {
    if (e.kind === 'Name') names.add(e.id);
    else forEachSubExpr(e, visit);
  };
  const onType = (t: TypeExpr): void => {
    for (const e of typeExprs(t)) visit(e);
  };
  const onStmts = (body: readonly Stmt[]): void => {
    for (const s of body) {
      stmtParts(s, visit, onType);
      switch (s.kind) {
        case 'If':
          onStmts(s.then);
          onStmts(s.orelse);
          break;
        case 'While':
        case 'For':
        case 'Scope':
          onStmts(s.body);
          break;
        default:
          break;
      }
    }
  };
  for (const p of programs) {
    for (const f of p.functions) {
      for (const k of f.decoratorKwargs) visit(k.value);
      for (const prm of f.params) if (prm.type) onType(prm.type);
      if (f.returns) onType(f.returns);
      for (const d of f.attrs) visit(d);
      onStmts(f.body);
    }
  }
  return names;
}

/**
 * A declaration statement: a call, as a statement, of an op the op catalog marks a declaration
 * (`frontend_declaration`; `pl.set_cache_policy(t, policy)` is one).
 */
export function isDeclaration(s: Stmt): boolean {
  return (
    s.kind === 'ExprStmt' &&
    s.value.kind === 'Call' &&
    s.value.callee.kind === 'op' &&
    opByCanonical(s.value.callee.name)?.declaration === true
  );
}

/**
 * A body in canonical statement order: declarations first (stable among themselves), then the
 * other statements in order. A declaration repeating an earlier one for the same name is
 * dropped: the first declaration of a binding wins. This is PyPTO's IR, not a contract's choice:
 * its parser hoists a scope's declarations into the scope's attribute (a set keyed by binding)
 * and its printer writes them first (docs/architecture.md). Returns `body` itself when already
 * canonical.
 */
export function hoistDecls<T extends Stmt>(body: readonly T[]): readonly T[] {
  let seenOther = false;
  let needed = false;
  const declared = new Set<string>();
  for (const s of body) {
    if (isDeclaration(s)) {
      const name = declaredName(s);
      if (seenOther || (name !== null && declared.has(name))) {
        needed = true;
        break;
      }
      if (name !== null) declared.add(name);
    } else seenOther = true;
  }
  if (!needed) return body;
  const seen = new Set<string>();
  const decls = body.filter(isDeclaration).filter((s) => {
    const name = declaredName(s);
    if (name === null) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
  return [...decls, ...body.filter((s) => !isDeclaration(s))];
}

/**
 * The name a well-formed declaration declares (`pl.set_cache_policy(name, pl.CachePolicy.X)`: a
 * name, then a member of the enum the op's second parameter takes), else null.
 */
function declaredName(s: Stmt): string | null {
  if (s.kind !== 'ExprStmt' || s.value.kind !== 'Call') return null;
  const c = s.value;
  if (c.callee.kind !== 'op') return null;
  const policy = c.args[1];
  const takes = opByCanonical(c.callee.name)?.params[1]?.enum;
  const validPolicy = policy !== undefined && policy.kind === 'Enum' && takes !== undefined && policy.enum === takes;
  return c.args.length === 2 && c.kwargs.length === 0 && c.args[0]!.kind === 'Name' && validPolicy ? c.args[0]!.id : null;
}
