// The walk of fact extraction: one Extractor per module numbers every node, binding and block
// and emits their facts (extract.ts is the entry point; rules/schema.dl documents each relation).
import { unrollDeps } from '../ir/comprehension.js';
import { evalConst } from '../ir/consts.js';
import {
  type ConstValue,
  type Expr,
  type ForStmt,
  type FunctionDef,
  type Module,
  type Param,
  type Program,
  partAt,
  type Span,
  type Stmt,
  type TypeExpr,
} from '../ir/nodes.js';
import { type Consumer, isYieldAssign } from './consume.js';
import type { BindingKind, BlockRole, Entity, IdRegistry, ParamEntity } from './node-table.js';
import type { FactSink, FactValue } from './sink.js';
import { tripCount } from './trip-count.js';
import { typeKind } from './type-kind.js';

interface LoopCtx {
  header: number;
  exit: number; // successor after the loop
}

export class Extractor {
  private scopeNames = new Map<string, number>();
  /** The constants of the program being extracted (its enclosing function's, else the module's). */
  private constants: ReadonlyMap<string, ConstValue> = new Map();
  private funcId = 0;
  private exitId = 0;

  constructor(
    private readonly module: Module,
    private readonly sink: FactSink,
    private readonly table: IdRegistry,
    private readonly consumer: Consumer | null,
  ) {
    this.preorder = sink.wants?.('preorder') ?? true;
    this.spans = sink.wants?.('span') ?? true;
    this.stmtSpans = sink.wants?.('stmt_span') ?? true;
  }

  /** Scratch tuples by arity, reused for every fact (sinks copy what they keep). */
  private readonly scratch: FactValue[][] = [[], [0], [0, 0], [0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0, 0]];

  // No rest parameter: a million-statement program emits tens of millions of facts, and an
  // array per fact is most of the garbage-collection cost.
  private emit(rel: string, a: FactValue, b?: FactValue, c?: FactValue, d?: FactValue, e?: FactValue): void {
    const n = e !== undefined ? 5 : d !== undefined ? 4 : c !== undefined ? 3 : b !== undefined ? 2 : 1;
    const t = this.scratch[n]!;
    t[0] = a;
    if (n > 1) t[1] = b!;
    if (n > 2) t[2] = c!;
    if (n > 3) t[3] = d!;
    if (n > 4) t[4] = e!;
    this.sink.add(rel, t);
  }

  private node(n: Entity, span: Span): number {
    const id = this.table.register(n);
    this.located(id, span);
    return id;
  }

  /** The `span` fact of `id` and its place in `preorder`. */
  private located(id: number, span: Span): void {
    if (this.spans) {
      if (this.module.parts) {
        // (A helper imported from another file: its line and column in that file.)
        const [line, col] = this.lineCol(span.start);
        this.emit('span', id, span.start, span.end, line, col);
      } else {
        const src = this.module.source;
        const line = src.lineOf(span.start);
        this.emit('span', id, span.start, span.end, line, span.start - src.lineStart(line) + 1);
      }
    }
    if (this.preorder) this.spanned.push(id, span.start, span.end);
  }

  /** (id, start, end) of every node with a span, for `preorder`. */
  private readonly spanned = new Int32Column();
  /** Whether the sink keeps `preorder` (computing it sorts every node of the module). */
  private readonly preorder: boolean;
  /** Whether the sink keeps `span` (a line lookup per node). */
  private readonly spans: boolean;
  /** Whether the sink keeps `stmt_span` (a line lookup per statement). */
  private readonly stmtSpans: boolean;

  /**
   * `preorder(n, k)`: k is node n's position in source pre-order (by start offset, an
   * enclosing node before the nodes inside it, then by id), so rules never order by id.
   */
  emitPreorder(): void {
    if (!this.preorder) return;
    const l = this.spanned.view();
    const order = Array.from({ length: l.length / 3 }, (_, i) => i);
    order.sort((a, b) => l[a * 3 + 1]! - l[b * 3 + 1]! || l[b * 3 + 2]! - l[a * 3 + 2]! || l[a * 3]! - l[b * 3]!);
    order.forEach((i, k) => this.emit('preorder', l[i * 3]!, k));
  }

  program(p: Program): void {
    this.constants = p.constants ?? this.module.constants;
    const pid = this.node(p, p);
    this.emit('program', pid, p.name);
    for (const f of p.functions) this.function(f, pid);
  }

  private function(f: FunctionDef, pid: number): void {
    const fid = this.node(f, f);
    this.funcId = fid;
    this.scopeNames = new Map();
    this.emit('function', fid, pid, f.name, f.funcKind);
    if (this.module.parts && f.start >= this.module.parts[1]!.base)
      this.emit('imported_function', fid, partAt(this.module.parts, f.start).source.path);
    f.params.forEach((p, i) => this.param(p, i, fid));
    if (f.returns) {
      // (and the elements of a tuple return type: the types of `a, b = f(...)`)
      const t = this.type(f.returns, fid, (i, id, e) => this.emit('return_type', fid, i, typeKind(e), id));
      this.emit('return_type', fid, -1, typeKind(f.returns), t);
    }
    // Every line of the `pl.func_attr` prologue (PyPTO merges them), every key.
    for (const d of f.attrs) {
      for (const entry of d.entries) {
        const key = entry.key.kind === 'Str' ? entry.key.value : '';
        const e = this.expr(entry.value, fid, 'attr');
        this.emit('func_attr', fid, key, e);
      }
    }
    const exit = this.table.register({ kind: 'Exit', func: f });
    if (this.spans) {
      const [exitLine, exitCol] = this.lineCol(f.end);
      this.emit('span', exit, f.end, f.end, exitLine, exitCol);
    }
    if (this.preorder) this.spanned.push(exit, f.end, f.end);
    this.emit('cfg_exit', fid, exit);
    this.exitId = exit;
    const entry = this.block(f.body, f, fid, 'body', exit, null);
    this.emit('cfg_entry', fid, entry);
  }

  private lineCol(offset: number): [number, number] {
    const part = this.module.parts ? partAt(this.module.parts, offset) : null;
    const { line, col } = part ? part.source.position(offset - part.base) : this.module.source.position(offset);
    return [line, col];
  }

  private param(p: Param, i: number, fid: number): void {
    const entity: ParamEntity = { kind: 'Param', param: p, start: p.start, end: p.end };
    const pidNode = this.node(entity, p);
    const b = this.bind(p.name, 'param', p, p.type, pidNode);
    this.emit('param', fid, i, b);
    this.emit('param_direction', b, p.direction);
  }

  private bind(name: string, kind: BindingKind, span: Span, type: TypeExpr | null, siteId: number): number {
    const id = this.table.registerBinding(name, kind, siteId, this.funcId, span.start, span.end, type);
    this.located(id, span);
    this.emit('binding', id, this.funcId, name, kind, siteId);
    if (type) {
      const t = this.type(type, siteId);
      this.emit('declared_type', id, typeKind(type), t);
    }
    this.scopeNames.set(name, id);
    return id;
  }

  private type(t: TypeExpr, owner: number, onElt?: (i: number, id: number, e: TypeExpr) => void): number {
    const id = this.node(t, t);
    switch (t.kind) {
      case 'TensorType':
      case 'TileType': {
        t.shape.forEach((d, i) => this.emit('type_dim', id, i, this.expr(d, owner, 'annotation')));
        this.emit('type_rank', id, t.shape.length);
        this.dtype(id, t.dtype);
        break;
      }
      case 'ScalarType':
        this.dtype(id, t.dtype);
        break;
      case 'ArrayType':
        this.emit('type_size', id, this.expr(t.size, owner, 'annotation'));
        this.dtype(id, t.dtype);
        break;
      case 'TupleType':
        t.elts.forEach((e, i) => {
          const id = this.type(e, owner);
          onElt?.(i, id, e);
        });
        break;
      case 'OpaqueType':
        break;
    }
    return id;
  }

  private dtype(tid: number, e: Expr): void {
    if (e.kind === 'Enum') this.emit('type_dtype', tid, e.member);
  }

  /**
   * Emits the statements of one block and its control flow. `next` is the node control
   * reaches after the block; returns the first node of the block (or `next` when empty).
   */
  private block(stmts: Stmt[], owner: FunctionDef | Stmt, ownerId: number, role: BlockRole, next: number, loop: LoopCtx | null): number {
    const bk = this.table.registerBlock(ownerId, role, stmts);
    this.emit('block', bk, ownerId, role);
    this.emit('block_size', bk, stmts.length);
    // The statements' ids are consecutive (each head registers one id), so none is stored per statement.
    const first = bk + 1;
    const pending = this.module.pending;
    if (pending === undefined) {
      for (let i = 0; i < stmts.length; i++) this.stmtHead(stmts[i]!, bk, i, owner, this.node(stmts[i]!, stmts[i]!));
    } else {
      // A streaming parse (Module.pending): the ids are set aside, each statement is numbered
      // when it has been parsed, as extraction reaches it (the same ids as above).
      this.table.reserve(stmts.length);
    }
    // Expressions and bodies in textual order (so names resolve to the latest binding).
    for (let i = 0; i < stmts.length; i++) {
      if (pending !== undefined) {
        pending.ensure(stmts, i);
        const s = stmts[i]!;
        this.table.registerAt(first + i, s);
        this.located(first + i, s);
        this.stmtHead(s, bk, i, owner, first + i);
      }
      const succ = i + 1 < stmts.length ? first + i + 1 : next;
      this.stmtBody(stmts[i]!, first + i, succ, loop);
      this.consumer?.drop(stmts, i);
    }
    return stmts.length > 0 ? first : next;
  }

  /** The facts of statement `s` (id `id`, numbered) as the `index`-th of block `bk`. */
  private stmtHead(s: Stmt, bk: number, index: number, owner: FunctionDef | Stmt, id: number): void {
    this.table.registerStmt(id, bk);
    this.emit('stmt', id, s.kind, bk, index);
    this.emit('stmt_func', id, this.funcId);
    if (this.stmtSpans) {
      const [line, col] = this.lineCol(s.start);
      this.emit('stmt_span', id, s.start, s.end, line, col);
    }
    if (owner.kind !== 'Function') {
      const src = this.module.source;
      if (src.lineOf(s.start) === src.lineOf(owner.start)) this.emit('inline_body', id);
    }
  }

  private edge(a: number, b: number): void {
    this.emit('cfg_edge', this.funcId, a, b);
  }

  private exitOf(): number {
    return this.exitId;
  }

  private stmtBody(s: Stmt, id: number, succ: number, loop: LoopCtx | null): void {
    switch (s.kind) {
      case 'Assign': {
        const v = this.expr(s.value, id, 'value');
        this.emit('stmt_value', id, v);
        if (s.annotation) this.type(s.annotation, id);
        const isYield = s.value.kind === 'Call' && s.value.callee.kind === 'op' && s.value.callee.name === 'yield_';
        s.targets.forEach((t, i) => {
          const tid = this.node(t, t);
          this.emit('expr', tid, 'Name', id, 'target');
          this.emit('name_expr', tid, t.id);
          const b = this.bind(t.id, isYield ? 'yield' : 'assign', t, i === 0 && s.targets.length === 1 ? s.annotation : null, id);
          this.emit('assign_target', id, i, b);
          this.emit('ref', tid, b);
        });
        this.edge(id, succ);
        return;
      }
      case 'ExprStmt':
        this.emit('stmt_value', id, this.expr(s.value, id, 'value'));
        this.edge(id, succ);
        return;
      case 'Return':
        if (s.value) this.emit('stmt_value', id, this.expr(s.value, id, 'value'));
        this.edge(id, this.exitOf());
        return;
      case 'Pass':
        this.edge(id, succ);
        return;
      case 'Break':
        this.edge(id, loop ? loop.exit : succ);
        return;
      case 'Continue':
        this.edge(id, loop ? loop.header : succ);
        return;
      case 'If': {
        this.emit('cond', id, this.expr(s.cond, id, 'cond'));
        const thenFirst = this.block(s.then, s, id, 'then', succ, loop);
        const elseFirst = this.block(s.orelse, s, id, 'else', succ, loop);
        this.edge(id, thenFirst);
        this.edge(id, elseFirst);
        this.yields(id, [
          [s.then, thenFirst],
          [s.orelse, elseFirst],
        ]);
        return;
      }
      case 'While': {
        this.emit('loop', id, 'while');
        this.emit('cond', id, this.expr(s.cond, id, 'cond'));
        const first = this.block(s.body, s, id, 'body', id, { header: id, exit: succ });
        this.edge(id, first);
        this.edge(id, succ);
        this.yields(id, [[s.body, first]]);
        return;
      }
      case 'For':
        this.forLoop(s, id, succ);
        return;
      case 'Scope': {
        this.emit('scope', id, s.scope);
        s.args.forEach((a, i) => this.emit('scope_arg', id, i, this.expr(a, id, 'arg')));
        for (const k of s.kwargs) this.emit('scope_kw', id, k.name, this.expr(k.value, id, 'kw'));
        if (s.deps) {
          this.emit('scope_has_deps', id);
          unrollDeps(s.deps, this.constants).forEach((d, i) => this.emit('scope_dep', id, i, this.expr(d, id, 'deps')));
        }
        if (s.asName) {
          const b = this.bind(s.asName.id, 'as', s.asName, null, id);
          this.emit('scope_as', id, b);
        }
        const first = this.block(s.body, s, id, 'body', succ, loop);
        this.edge(id, first);
        return;
      }
    }
  }

  private forLoop(s: ForStmt, id: number, succ: number): void {
    this.emit('loop', id, s.loopKind);
    if (s.loopKind === 'spmd' || s.loopKind === 'split_aiv') {
      if (s.args[0]) this.emit('loop_bound', id, 'count', this.expr(s.args[0], id, 'count'));
    } else if (s.loopKind !== 'while') {
      const roles = ['start', 'stop', 'step'];
      s.args.forEach((a, i) => this.emit('loop_bound', id, roles[i] ?? `arg${i}`, this.expr(a, id, roles[i] ?? 'arg')));
      const n = tripCount(s, this.constants);
      if (n !== undefined) this.emit('trip_count', id, n);
    }
    for (const k of s.kwargs) this.emit('loop_kw', id, k.name, this.expr(k.value, id, 'kw'));
    s.initValues.forEach((e, i) => this.emit('init_value', id, i, this.expr(e, id, 'init')));
    if (s.target) {
      const b = this.bind(s.target.id, 'loop_var', s.target, null, id);
      this.emit('loop_var', id, b);
    }
    s.iterArgs.forEach((a, i) => {
      const b = this.bind(a.id, 'iter_arg', a, null, id);
      this.emit('iter_arg', id, i, b);
    });
    if (s.cond) this.emit('cond', id, this.expr(s.cond, id, 'cond'));
    const first = this.block(s.body, s, id, 'body', id, { header: id, exit: succ });
    this.edge(id, first);
    this.edge(id, succ);
    this.yields(id, [[s.body, first]]);
  }

  /**
   * Emits yield_stmt / return_var for `v = pl.yield_(e)` assignments at the top of `bodies`
   * (each with the id of its first statement, as `block` returns it for a non-empty body).
   */
  private yields(ownerId: number, bodies: [Stmt[], number][]): void {
    const seen = new Set<string>();
    for (const [body, first] of bodies) {
      for (let k = 0; k < body.length; k++) {
        const st = body[k]!;
        if (st.kind !== 'Assign' || !isYieldAssign(st)) continue;
        const yid = first + k;
        this.emit('yield_stmt', yid, ownerId);
        st.targets.forEach((t, i) => {
          const key = `${i}:${t.id}`;
          const b = this.scopeNames.get(t.id);
          if (b !== undefined && !seen.has(key)) {
            seen.add(key);
            this.emit('return_var', ownerId, i, b);
          }
        });
      }
    }
  }

  // The pending expressions of `expr`, as parallel arrays reused for every tree (no object or
  // closure per node): the expression, its parent's id, how it hangs off the parent (a Link),
  // its position and, for a keyword argument, the keyword.
  private readonly wExpr: Expr[] = [];
  private readonly wParent: number[] = [];
  private readonly wLink: Link[] = [];
  private readonly wIndex: number[] = [];
  private readonly wName: string[] = [];

  /** Reverses the queued expressions from `from` on (so that they are taken in order). */
  private reverseFrom(from: number): void {
    reverseFrom(this.wExpr, from);
    reverseFrom(this.wParent, from);
    reverseFrom(this.wLink, from);
    reverseFrom(this.wIndex, from);
    reverseFrom(this.wName, from);
  }

  /** Queues `c` as a child of `parent` (pushed in reverse order by the caller's caller). */
  private kid(c: Expr, parent: number, link: Link, index = 0, name = ''): void {
    this.wExpr.push(c);
    this.wParent.push(parent);
    this.wLink.push(link);
    this.wIndex.push(index);
    this.wName.push(name);
  }

  /**
   * The facts of an expression tree; returns its root's id. Iterative (an explicit stack, ids
   * in pre-order), so trees as deep as Python accepts (a chain of ~3,000 operators) cannot
   * exhaust the JavaScript stack.
   */
  private expr(root: Expr, stmtId: number, role: string): number {
    const { wExpr, wParent, wLink, wIndex, wName } = this;
    const bottom = wExpr.length;
    this.kid(root, 0, Link.Root);
    let rootId = -1;
    while (wExpr.length > bottom) {
      const e = wExpr.pop()!;
      const parent = wParent.pop()!;
      const link = wLink.pop()!;
      const index = wIndex.pop()!;
      const name = wName.pop()!;
      const id = this.node(e, e);
      if (link === Link.Root) rootId = id;
      else {
        this.emit('expr_child', parent, id);
        switch (link) {
          case Link.Elt:
            this.emit('elt', parent, index, id);
            break;
          case Link.Arg:
            this.emit('arg', parent, index, id);
            break;
          case Link.YieldArg:
            this.emit('arg', parent, index, id);
            this.emit('yield_value', stmtId, index, id);
            break;
          case Link.Kwarg:
            this.emit('kwarg', parent, name, id);
            break;
          case Link.SubmitArg:
            this.emit('submit_arg', parent, index, id);
            break;
          case Link.SubmitDep:
            this.emit('submit_dep', parent, index, id);
            break;
          default:
            break;
        }
      }
      this.emit('expr', id, e.kind, stmtId, role);
      // Children are queued in order, then reversed so that they are taken in order.
      const first = wExpr.length;
      switch (e.kind) {
        case 'Name': {
          this.emit('name_expr', id, e.id);
          const b = this.scopeNames.get(e.id);
          if (b !== undefined) this.emit('ref', id, b);
          break;
        }
        case 'Int':
        case 'Float':
        case 'Bool':
        case 'None':
        case 'Str':
          break;
        case 'List':
        case 'Tuple':
          for (let i = 0; i < e.elts.length; i++) this.kid(e.elts[i]!, id, Link.Elt, i);
          this.emit('elt_count', id, e.elts.length);
          break;
        case 'Dict':
          for (const en of e.entries) {
            this.kid(en.key, id, Link.Child);
            this.kid(en.value, id, Link.Child);
          }
          break;
        case 'Attr':
          this.kid(e.value, id, Link.Child);
          break;
        case 'Enum':
          this.emit('enum_value', id, e.enum, e.member);
          break;
        case 'Subscript':
          this.kid(e.value, id, Link.Child);
          this.kid(e.index, id, Link.Child);
          break;
        case 'Slice':
          if (e.lower) this.kid(e.lower, id, Link.Child);
          if (e.upper) this.kid(e.upper, id, Link.Child);
          break;
        case 'Comp':
          this.kid(e.iter, id, Link.Child);
          for (const c of e.conds) this.kid(c, id, Link.Child);
          this.kid(e.elt, id, Link.Child);
          break;
        case 'Unary':
          this.kid(e.operand, id, Link.Child);
          break;
        case 'Binary':
          this.kid(e.left, id, Link.Child);
          this.kid(e.right, id, Link.Child);
          break;
        case 'Call': {
          const c = e.callee;
          if (c.kind === 'op') this.emit('call', id, c.name, 'op');
          else if (c.kind === 'self') this.emit('call', id, c.name, 'self');
          else {
            this.emit('call', id, '', 'other');
            this.kid(c.expr, id, Link.Child);
          }
          const isYield = c.kind === 'op' && c.name === 'yield_' && role === 'value';
          for (let i = 0; i < e.args.length; i++) this.kid(e.args[i]!, id, isYield ? Link.YieldArg : Link.Arg, i);
          this.emit('nargs', id, e.args.length);
          for (const k of e.kwargs) this.kid(k.value, id, Link.Kwarg, 0, k.name);
          break;
        }
        case 'Submit': {
          this.emit('submit', id, e.func);
          e.args.forEach((a, i) => this.kid(a, id, Link.SubmitArg, i));
          for (const k of e.kwargs) this.kid(k.value, id, Link.Kwarg, 0, k.name);
          if (e.deps) {
            this.emit('submit_has_deps', id);
            // A comprehension of known length is its elements (PyPTO unrolls it at parse time).
            unrollDeps(e.deps, this.constants).forEach((d, i) => this.kid(d, id, Link.SubmitDep, i));
          }
          break;
        }
      }
      const v = evalConst(e, this.constants);
      // Every constant the IR evaluates (a safe integer): the engine's numbers are 64-bit.
      if (v !== undefined) this.emit('const_value', id, v);
      this.reverseFrom(first);
    }
    return rootId;
  }
}

/** How an expression hangs off its parent: the facts emitted when it gets its id. */
enum Link {
  Root,
  Child,
  Elt,
  Arg,
  YieldArg,
  Kwarg,
  SubmitArg,
  SubmitDep,
}

/** A growable column of 32-bit integers (off the JS heap, 4 bytes a value). */
class Int32Column {
  private a = new Int32Array(1024);
  private n = 0;

  push(x: number, y: number, z: number): void {
    if (this.n + 3 > this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
    this.a[this.n++] = y;
    this.a[this.n++] = z;
  }

  /** The values pushed so far. */
  view(): Int32Array {
    return this.a.subarray(0, this.n);
  }
}

/** Reverses, in place, the elements of `a` from index `from` to its end. */
function reverseFrom<T>(a: T[], from: number): void {
  for (let i = from, j = a.length - 1; i < j; i++, j--) {
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
}
