/**
 * The IR of a PyPTO module: typed node kinds for programs, functions, statements,
 * expressions and types. Every node carries the span [start, end) of its source text
 * (character offsets into the module's original text) in its own `start` and `end` fields, so a
 * node is itself a `Span` (no span object per node: a million-statement IR holds millions of
 * nodes). Nodes synthesised by a rewrite carry the zero-width span of the place they were
 * inserted at.
 *
 * Structural identity ignores spans: two programs are the same program exactly when their
 * IR trees are equal with spans removed (see `equal.ts`).
 */

import type { Diagnostic } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import type { ModulePart } from './module-parts.js';

export { type ModulePart, partAt } from './module-parts.js';

export interface Span {
  start: number;
  end: number;
}

/** A fresh `{ start, end }` with the span of `s` (a node or a span): for keeping a span without keeping its node. */
export function spanOf(s: Span): Span {
  return { start: s.start, end: s.end };
}

// ---------------------------------------------------------------------------------------
// Expressions

/** The binary operators of the DSL's expressions (the parser reads these; the generators draw them). */
export const BINARY_OPS = [
  '+',
  '-',
  '*',
  '/',
  '//',
  '%',
  '**',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'and',
  'or',
  '&',
  '|',
  '^',
  '<<',
  '>>',
] as const;
export type BinaryOp = (typeof BINARY_OPS)[number];

export type UnaryOp = '-' | 'not' | '~';

export interface NameExpr {
  kind: 'Name';
  id: string;
  start: number;
  end: number;
}
/** Integer literal; `value` is exact for |n| < 2^53, `text` keeps the spelling (e.g. `0x10`). */
export interface IntExpr {
  kind: 'Int';
  value: number;
  start: number;
  end: number;
}
export interface FloatExpr {
  kind: 'Float';
  value: number;
  text: string;
  start: number;
  end: number;
}
export interface BoolExpr {
  kind: 'Bool';
  value: boolean;
  start: number;
  end: number;
}
export interface NoneExpr {
  kind: 'None';
  start: number;
  end: number;
}
export interface StrExpr {
  kind: 'Str';
  value: string;
  start: number;
  end: number;
  /** An f-string (read as an argument of `pl.static_print` / `pl.static_assert` only): printed `f"..."`, `value` its text. */
  fstring?: true;
}
export interface ListExpr {
  kind: 'List';
  elts: Expr[];
  start: number;
  end: number;
}
export interface TupleExpr {
  kind: 'Tuple';
  elts: Expr[];
  start: number;
  end: number;
}
export interface DictExpr {
  kind: 'Dict';
  entries: { key: Expr; value: Expr }[];
  start: number;
  end: number;
}
/** `value.attr` that is not a known enum literal (e.g. `self.kernel`, `x.shape`). */
export interface AttrExpr {
  kind: 'Attr';
  value: Expr;
  attr: string;
  start: number;
  end: number;
}
/**
 * A known enum literal: `pl.FP32` (enum `DataType`), `pld.NotifyOp.AtomicAdd`,
 * `pl.CachePolicy.BYPASS`, ... An integer written where an op parameter expects an enum is
 * turned into this node too, so `op=0` and `op=pld.NotifyOp.AtomicAdd` are the same IR.
 * `module` is the prefix it prints with (`pl` or `pld`).
 */
export interface EnumExpr {
  kind: 'Enum';
  module: 'pl' | 'pld';
  enum: string;
  member: string;
  start: number;
  end: number;
}
export interface SubscriptExpr {
  kind: 'Subscript';
  value: Expr;
  index: Expr;
  start: number;
  end: number;
}
/**
 * `lower:upper` in a subscript (`x[0:H, :]`): PyPTO lowers a read to a `tensor.slice` /
 * `tile.slice` view; a missing bound is the axis start / end. A step is rejected (as PyPTO does).
 */
export interface SliceExpr {
  kind: 'Slice';
  lower: Expr | null;
  upper: Expr | null;
  start: number;
  end: number;
}
/**
 * `[elt for target in iter if c]`: read only in a `deps=` list (as the list or one of its
 * elements), where PyPTO unrolls it at parse time into one dependency per value of `iter`
 * (a dependency list of known length when `iter` is `range(N)` with N known, else symbolic).
 */
export interface CompExpr {
  kind: 'Comp';
  elt: Expr;
  target: NameExpr;
  iter: Expr;
  conds: Expr[];
  start: number;
  end: number;
}
export interface UnaryExpr {
  kind: 'Unary';
  op: UnaryOp;
  operand: Expr;
  start: number;
  end: number;
}
export interface BinaryExpr {
  kind: 'Binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
  start: number;
  end: number;
}

export interface Keyword {
  name: string;
  value: Expr;
  start: number;
  end: number;
}

/**
 * How a call names what it calls:
 * - `op`: a registered op. `name` is canonical when the op table knows it (`tile.store`,
 *   `pld.system.notify`); otherwise the name as written without nothing dropped
 *   (`pl.foo.bar`) and `known` is false.
 * - `self`: a call of another function of the program, `self.name(...)`; in a JIT program
 *   (`bare`) the call names the module-level kernel directly, `name(...)`.
 * - `other`: anything else callable (a plain name or an expression), kept as written.
 */
export type Callee =
  | { kind: 'op'; name: string; known: boolean }
  | { kind: 'self'; name: string; bare?: true }
  | { kind: 'other'; expr: Expr };

/**
 * A call. For known ops, keyword arguments that name a parameter with a position are moved
 * into `args` at that position, so keyword and positional forms give the same node; `kwargs`
 * keeps the rest (attribute-like keywords such as `cache=`, `out_dtype=`), in source order.
 */
export interface CallExpr {
  kind: 'Call';
  callee: Callee;
  args: Expr[];
  kwargs: Keyword[];
  start: number;
  end: number;
}

/**
 * `pl.submit(self.kernel, a, b, deps=[tids])`: a task launch. `func` is the submitted
 * function name (from `self.kernel`), `args` the kernel arguments, `deps` the dependency list
 * (null when no `deps=` is written), [`depsStart`, `depsEnd`) the span of the list expression
 * (for rewrites; both -1 when `deps` is null): two numbers, not a span object per Submit.
 */
export interface SubmitExpr {
  kind: 'Submit';
  func: string;
  args: Expr[];
  kwargs: Keyword[];
  deps: Expr[] | null;
  depsStart: number;
  depsEnd: number;
  start: number;
  end: number;
}

export type Expr =
  | NameExpr
  | IntExpr
  | FloatExpr
  | BoolExpr
  | NoneExpr
  | StrExpr
  | ListExpr
  | TupleExpr
  | DictExpr
  | AttrExpr
  | EnumExpr
  | SubscriptExpr
  | SliceExpr
  | CompExpr
  | UnaryExpr
  | BinaryExpr
  | CallExpr
  | SubmitExpr;

// ---------------------------------------------------------------------------------------
// Types

/** `pl.Tensor[[d0, d1], pl.FP32]`, or `pld.DistributedTensor[...]` when `distributed`. */
export interface TensorType {
  kind: 'TensorType';
  distributed: boolean;
  shape: Expr[];
  /**
   * Set only when the shape is not written as a list literal, e.g. `pl.Tensor[SHAPE, pl.FP32]`
   * with a list constant `SHAPE`: the expression as written (print it instead of `shape`).
   * `shape` then holds the constant's dimensions as Int nodes (empty when it is unknown).
   */
  shapeExpr?: Expr;
  dtype: Expr;
  /** Further elements kept for printing (e.g. a layout); a `"window_buffer=..."` string is dropped. */
  extras: Expr[];
  start: number;
  end: number;
}
/** `pl.Tile[[r, c], pl.FP32, ...]`; `shapeExpr` as in TensorType. */
export interface TileType {
  kind: 'TileType';
  shape: Expr[];
  shapeExpr?: Expr;
  dtype: Expr;
  extras: Expr[];
  start: number;
  end: number;
}
export interface ScalarType {
  kind: 'ScalarType';
  dtype: Expr;
  start: number;
  end: number;
}
/** `pl.Array[4, pl.TASK_ID]`: size may be symbolic. */
export interface ArrayType {
  kind: 'ArrayType';
  size: Expr;
  dtype: Expr;
  start: number;
  end: number;
}
/** `tuple[T1, T2]`. */
export interface TupleType {
  kind: 'TupleType';
  elts: TypeExpr[];
  start: number;
  end: number;
}
/** A type the IR does not model, kept as an expression for printing. */
export interface OpaqueType {
  kind: 'OpaqueType';
  expr: Expr;
  start: number;
  end: number;
}

export type TypeExpr = TensorType | TileType | ScalarType | ArrayType | TupleType | OpaqueType;

export type Direction = 'in' | 'out' | 'inout';

export interface Param {
  name: string;
  type: TypeExpr | null;
  direction: Direction;
  start: number;
  end: number;
}

// ---------------------------------------------------------------------------------------
// Statements

/**
 * `x = e`, `x: T = e`, `a, b = e`. A single target has `targets.length === 1`.
 * The element write `tids[i] = t` is sugar, read as `tids = pl.array.update_element(tids, i, t)`
 * (an Assign whose value is that call); the printer writes it back in the sugared form.
 */
export interface AssignStmt extends Commented {
  kind: 'Assign';
  /**
   * Set for a slice write `dst[0:H, :] = src`, which PyPTO lowers to
   * `dst = pl.assemble(dst, src, offsets)`: the subscript index as written (printed back in
   * the sugared form). `value` is then that `tensor.assemble` call (offsets: each slice's lower
   * bound, 0 when omitted, or the scalar index).
   */
  sliceIndex?: Expr;
  /**
   * Set for a nested tuple target, `(a, b), tid = pl.submit(...)`: the target as written
   * (Tuples of Names). `targets` holds its names flattened, in order.
   */
  targetPattern?: TupleExpr;
  targets: NameExpr[];
  /** True when written `(a, b) = ...` or `a, b = ...` even with one name (`(a,) = ...`). */
  tupleTarget: boolean;
  annotation: TypeExpr | null;
  value: Expr;
  start: number;
  end: number;
}
export interface ExprStmt extends Commented {
  kind: 'ExprStmt';
  value: Expr;
  start: number;
  end: number;
}
export interface ReturnStmt extends Commented {
  kind: 'Return';
  value: Expr | null;
  start: number;
  end: number;
}
export interface PassStmt extends Commented {
  kind: 'Pass';
  start: number;
  end: number;
}
export interface BreakStmt extends Commented {
  kind: 'Break';
  start: number;
  end: number;
}
export interface ContinueStmt extends Commented {
  kind: 'Continue';
  start: number;
  end: number;
}

/** `if c: ... else: ...`; `elif` is an `else` holding exactly one `If` with `isElif` set. */
export interface IfStmt extends Commented {
  kind: 'If';
  cond: Expr;
  then: Stmt[];
  orelse: Stmt[];
  isElif: boolean;
  start: number;
  end: number;
}

/** `while c:` (plain). */
export interface WhileStmt extends Commented {
  kind: 'While';
  cond: Expr;
  body: Stmt[];
  start: number;
  end: number;
}

/**
 * Loop kinds: `range` (`pl.range`, and Python `range`), `parallel`, `unroll`, `pipeline`,
 * `spmd` (`for i in pl.spmd(N)`), `while` (SSA `for (x,) in pl.while_(init_values=(x0,))`
 * whose body opens with `pl.cond(c)`, held in `cond`), `split_aiv` (`for aiv_id in
 * pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN)`: an AIV-split region, its body run per AIV lane;
 * args as written, `mode=` in kwargs).
 */
export type LoopKind = 'range' | 'parallel' | 'unroll' | 'pipeline' | 'spmd' | 'while' | 'split_aiv';

export interface ForStmt extends Commented {
  kind: 'For';
  loopKind: LoopKind;
  /** The loop variable (`i`), null for `while` loops. */
  target: NameExpr | null;
  /** Loop-carried names in `for i, (a, b) in ...`; empty when there are none. */
  iterArgs: NameExpr[];
  /**
   * Iterator arguments. For range-like loops (`range`, `parallel`, `unroll`, `pipeline`) always
   * normalised to `[start, stop, step]` from positional and `start=`/`stop=`/`step=` keyword
   * forms; a missing start/step is a synthesised Int 0 / Int 1 with a zero-width span at the
   * start of the iterator call. For `spmd`, `split_aiv` and `while` loops, the positional arguments as written.
   */
  args: Expr[];
  /** Keyword arguments other than `init_values` (and, for range-like loops, `start`/`stop`/`step`), e.g. `stage=2`, in source order. */
  kwargs: Keyword[];
  /** `init_values=(...)` elements; empty when absent. */
  initValues: Expr[];
  /** For `while` loops, the condition from the body's opening `pl.cond(c)`. */
  cond: Expr | null;
  body: Stmt[];
  start: number;
  end: number;
}

/**
 * `with ...:` scopes. `scope` is the kind:
 * - `manual`: `pl.manual_scope()` or `pl.scope(mode=pl.ScopeMode.MANUAL)`
 * - `auto`: `pl.scope()` / `pl.scope(mode=pl.ScopeMode.AUTO)`
 * - `at`: `pl.at(level=..., name_hint=..., deps=[...])`
 * - `spmd`: `with pl.spmd(N):`
 * - `cluster`: `pl.cluster(...)`
 * `args`/`kwargs` are the call's other arguments (e.g. `level=`), `deps` the `deps=` list
 * (null when absent), `asName` the `as tid` target.
 */
export type ScopeKind = 'manual' | 'auto' | 'at' | 'spmd' | 'cluster';

export interface ScopeStmt extends Commented {
  kind: 'Scope';
  scope: ScopeKind;
  args: Expr[];
  kwargs: Keyword[];
  deps: Expr[] | null;
  /** The span of the `deps=` list expression, as in SubmitExpr (both -1 when `deps` is null). */
  depsStart: number;
  depsEnd: number;
  asName: NameExpr | null;
  body: Stmt[];
  start: number;
  end: number;
}

/**
 * Comments kept for `fmt` (PyPTO's leading comments): each `# ...` line written before the node
 * (after the previous one) or on its own lines (its header's, for a compound statement), in
 * source order, as written (from `#`, trailing spaces dropped).
 */
export interface Commented {
  comments?: string[];
}

export type Stmt = AssignStmt | ExprStmt | ReturnStmt | PassStmt | BreakStmt | ContinueStmt | IfStmt | WhileStmt | ForStmt | ScopeStmt;

// ---------------------------------------------------------------------------------------
// Functions, programs, modules

export type FunctionKind = 'Opaque' | 'Orchestration' | 'InCore' | 'AIC' | 'AIV' | 'Group' | 'Spmd' | 'Inline' | 'Graph';

export interface FunctionDef extends Commented {
  kind: 'Function';
  name: string;
  funcKind: FunctionKind;
  /** Decorator keywords other than `type=` (`level=`, `role=`, ...), kept for printing. */
  decoratorKwargs: Keyword[];
  /** True when written `@pl.function` with no call parentheses. */
  bareDecorator: boolean;
  params: Param[];
  returns: TypeExpr | null;
  /** The docstring (Python's: a string literal that is the body's first statement), or null. */
  docstring: string | null;
  /** The `pl.func_attr({...})` lines opening the body, in order (PyPTO merges them; none: empty). */
  attrs: DictExpr[];
  /** A JIT kernel (`@pl.jit`, `@pl.jit.incore(level=...)`, ...): the decorator expression as written. */
  jit?: Expr;
  /** Written without a `self` parameter (PyPTO makes it optional in a `@pl.program` class). */
  noSelf?: true;
  /**
   * The body is `...` (optionally after a docstring / `pl.func_attr`): an external kernel
   * (`external_source=`, `@pl.jit.extern`) or an abstract SubWorker. `body` is empty; a call
   * of it is an opaque write.
   */
  external?: true;
  /**
   * A HOST SubWorker's body: plain Python PyPTO does not parse (kept as text, dedented, one
   * entry per line; `body` is empty). Null/absent for every other function.
   */
  hostSource?: string[];
  body: Stmt[];
  /** From the first decorator's `@` to the end of the last body statement (docstring and func_attr included). */
  start: number;
  end: number;
}

export interface Program extends Commented {
  kind: 'Program';
  /** The class name; for the JIT kernels of a module, `jit`. */
  name: string;
  /** The module-level JIT kernels of a module (each a `@pl.jit...` function), read as one program. */
  jit?: true;
  /**
   * Inline helpers imported from other modules (project-imports.ts), each a function without
   * body named as the module calls it: a call of one is no opaque write (its body is judged in
   * its own file). Not printed.
   */
  imported?: true;
  functions: FunctionDef[];
  /**
   * The constants in effect for this program when a builder function or test method encloses
   * it (the module's, overlaid with that function's bindings); absent: the module's.
   */
  constants?: ReadonlyMap<string, ConstValue>;
  /** From the `@pl.program` decorator to the end of the last function. */
  start: number;
  end: number;
}

/** A module-level constant: an integer or a list of integers (`N = 8`, `SHAPE = [16, 64]`). */
export type ConstValue = number | ConstValue[];

export interface Module {
  source: SourceText;
  /** Module constants after `-D` overrides. */
  constants: Map<string, ConstValue>;
  programs: Program[];
  /**
   * Errors of programs / functions that could not be read (each one left out of `programs`,
   * or its program kept without it), and warnings / notes about the module as a whole
   * (`unfollowed-import`, `no-program`). Empty when everything was read.
   */
  problems?: Diagnostic[];
  /** What was found and what of it could be read (for measurements over many files). */
  stats?: ReadStats;
  /** Comments at the top of the file, before its first line of code (a licence header), kept by `fmt`. */
  headerComments?: string[];
  /**
   * Module-level symbolic dimensions: `NAME = pl.dynamic("TEXT")` (NAME → TEXT), in module order,
   * kept by `fmt` for the names the programs use.
   */
  dynamics?: Map<string, string>;
  /** How the module spells `pl` and `pld` (its imports), for text the rewriter inserts. */
  spell?: { pl: string; pld: string };
  /**
   * Set when the module holds the bodies of inline helpers imported from other files (an
   * `imported` program per file): `source` is then the module's text followed by each such
   * file's text, and part k covers [base, next part's base) of it. Part 0 is the module's own
   * file; each part's spans shift by its `base`.
   */
  parts?: ModulePart[];
  /**
   * Set by a streaming parse (ParseOptions.streaming) only: some blocks hold placeholders that
   * `ensure` parses in place as fact extraction reaches them. Such a module is for extraction
   * alone: no comments are attached to it.
   */
  pending?: PendingStatements;
}

/** The statements of a streaming parse not parsed yet (Module.pending). */
export interface PendingStatements {
  /** Makes `stmts[i]` a parsed statement (parsing its chunk into `stmts` when it is a placeholder). */
  ensure(stmts: Stmt[], i: number): void;
}

export interface ReadStats {
  /** `@pl.program` classes found / of them read with an error (the class or one of its functions). */
  programs: number;
  programsWithErrors: number;
  /** Module-level JIT kernels found / of them that could not be read. */
  jitKernels: number;
  jitKernelsWithErrors: number;
}

export type Node = Expr | TypeExpr | Stmt | FunctionDef | Program | Param | Keyword;
