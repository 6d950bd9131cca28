/**
 * fast-check arbitraries of random, syntactically valid PyPTO programs (IR `Program`s in the
 * exact normalised shape the frontend produces, with zero spans), for round-trip and
 * idempotence properties, `verify`, and benchmarks. Programs need not mean anything; they
 * only stay inside the DSL subset of `docs/input-language.md`:
 * - InCore kernels (`k0`, `k1`, ...) and Orchestration / Opaque functions in one program;
 * - parameters of every type kind (Tensor, DistributedTensor, Tile, Scalar, Array[TASK_ID],
 *   tuple returns) and direction;
 * - statements: assign, annotated assign, tuple unpack of `pl.submit`, element write, op
 *   calls (store/write/read/load/get/remote_store/put/notify/wait/cacheinvalid/fence, unknown
 *   `pl.*` ops), `self.helper(...)` calls, cache-policy declarations, if/elif/else, while,
 *   for over range/parallel/unroll/pipeline/spmd with iter-args + yield, SSA `pl.while_`,
 *   scopes manual/auto/at/spmd/cluster, return, pass, break, continue;
 * - expressions: arithmetic, comparisons, boolean and bitwise operators, unary, literals,
 *   lists, tuples, attributes, subscripts, enums.
 * Recursion is bounded: `maxDepth` for statement nesting, `exprDepth` for expressions.
 */
import fc from 'fast-check';
import { KEYWORDS } from '../frontend/hand-tokens.js';
import {
  BINARY_OPS,
  type BinaryOp,
  type Direction,
  type Expr,
  type FunctionDef,
  type FunctionKind,
  type Keyword,
  type Param,
  type Program,
  type Stmt,
  type TypeExpr,
  type UnaryOp,
} from '../ir/nodes.js';
import { DATA_TYPES, ENUMS, OPS } from '../ir/ops.js';
import { printModule } from '../ir/print.js';
import * as b from './build.js';

export interface GenOptions {
  /** Maximum statement nesting depth (default 3). */
  maxDepth?: number;
  /** Maximum expression depth (default 3). */
  exprDepth?: number;
  /** Maximum statements per body (default 4). */
  maxStmts?: number;
  /** Maximum functions of each kind per program (default 2). */
  maxFunctions?: number;
}

const PY_KEYWORDS = KEYWORDS;
/** Names a generated variable never takes: keywords and names the DSL gives a meaning. */
const RESERVED = new Set([...PY_KEYWORDS, 'pl', 'pld', 'self', 'range', 'tuple', 'print', '_']);

/** True when `s` is a usable generated identifier. */
export function isValidName(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !RESERVED.has(s);
}

const NAME_POOL = [
  'a',
  'b',
  'c',
  'x',
  'y',
  'z',
  'i',
  'j',
  't',
  'acc',
  'tmp',
  'tids',
  'tid',
  'sig',
  'win',
  'peer',
  'row',
  'n_iter',
  'out',
  'data',
];

/** A variable name: mostly from a small pool (so names repeat), sometimes random. */
export const arbName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAME_POOL) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/).filter(isValidName) },
);

const arbUpperName = fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,7}$/).filter(isValidName);

const UNARY_OPS: UnaryOp[] = ['-', 'not', '~'];
const FLOAT_TEXTS = ['0.5', '1.0', '3.25', '2.', '.5', '1e-3', '2.5e2'];
const DTYPES = [...DATA_TYPES];
const ENUM_NAMES = Object.keys(ENUMS);

export const arbDtype: fc.Arbitrary<Expr> = fc.constantFrom(...DTYPES).map(b.dtype);

/** An enum literal of the given enum (any member), or of any enum. */
export function arbEnum(enumName?: string): fc.Arbitrary<Expr> {
  if (enumName) return fc.constantFrom(...Object.keys(ENUMS[enumName]!.members)).map((m) => b.enumLit(enumName, m));
  return fc.constantFrom(...ENUM_NAMES).chain((e) => arbEnum(e));
}

const arbInt = fc.nat({ max: 1000 }).map(b.int);
const arbSmallInt = fc.nat({ max: 16 }).map(b.int);
/** Strings, now and then with quotes, backslashes, control and non-ASCII characters. */
const arbStr = fc
  .oneof(
    { weight: 3, arbitrary: fc.stringMatching(/^[a-zA-Z0-9_ =.-]{0,8}$/) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.constantFrom('a', ' ', '"', "'", '\\', '\n', '\t', '\r', '\x01', '\x7f', 'é', '中', '#', '{'), { maxLength: 6 })
        .map((cs) => cs.join('')),
    },
  )
  .map(b.str);

const arbLeaf: fc.Arbitrary<Expr> = fc.oneof(
  { weight: 6, arbitrary: arbName.map(b.name) },
  { weight: 4, arbitrary: arbInt },
  { weight: 1, arbitrary: fc.constantFrom(...FLOAT_TEXTS).map(b.float) },
  { weight: 1, arbitrary: fc.boolean().map(b.bool) },
  { weight: 1, arbitrary: fc.constant(null).map(() => b.none()) },
  { weight: 1, arbitrary: arbStr },
  { weight: 1, arbitrary: arbEnum() },
  { weight: 1, arbitrary: arbDtype },
);

/** A shape dimension: integer, symbolic name, or `N - 1` style. */
const arbDim: fc.Arbitrary<Expr> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 256 }).map(b.int) },
  { weight: 2, arbitrary: fc.constantFrom('N', 'M', 'ROWS', 'COLS', 'n').map(b.name) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('N', 'M'), fc.constantFrom<BinaryOp>('+', '-', '*', '//'), fc.integer({ min: 1, max: 4 }))
      .map(([n, op, k]) => b.bin(op, b.name(n), b.int(k))),
  },
);
const arbShape = fc.array(arbDim, { minLength: 1, maxLength: 3 });
const arbOffsets = fc.array(fc.oneof(arbSmallInt, arbName.map(b.name)), { minLength: 1, maxLength: 3 }).map((es) => b.list(...es));

/** Expressions up to `depth` levels of operators / calls / containers. */
export function arbExpr(depth = 3): fc.Arbitrary<Expr> {
  const { expr } = fc.letrec<{ expr: Expr }>((tie) => {
    const sub = tie('expr');
    return {
      expr: fc.oneof(
        { maxDepth: depth, depthIdentifier: 'gen-expr' },
        { weight: 5, arbitrary: arbLeaf },
        { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...BINARY_OPS), sub, sub).map(([op, l, r]) => b.bin(op, l, r)) },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...UNARY_OPS), sub).map(([op, e]) => b.unary(op, e)) },
        { weight: 1, arbitrary: fc.array(sub, { maxLength: 3 }).map((es) => b.list(...es)) },
        { weight: 1, arbitrary: fc.array(sub, { minLength: 1, maxLength: 3 }).map((es) => b.tuple(...es)) },
        { weight: 1, arbitrary: fc.tuple(arbName, fc.constantFrom('shape', 'dtype', 'size')).map(([n, a]) => b.attr(b.name(n), a)) },
        { weight: 1, arbitrary: fc.tuple(arbName, sub).map(([n, i]) => b.sub(b.name(n), i)) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom('pl.add', 'pl.mul', 'pl.exp', 'pl.tensor.create'), fc.array(sub, { maxLength: 3 }), arbKwargs(sub))
            .map(([op, args, kws]) => b.call(op, args, kws)),
        },
        { weight: 1, arbitrary: fc.tuple(arbName, fc.array(sub, { maxLength: 2 })).map(([n, args]) => b.selfCall(n, args)) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(arbName, fc.array(sub, { maxLength: 2 }), arbKwargs(sub))
            .map(([n, args, kws]) => b.otherCall(b.name(n), args, kws)),
        },
        { weight: 1, arbitrary: fc.array(fc.tuple(sub, sub), { maxLength: 2 }).map((es) => b.dict(...es)) },
      ),
    };
  });
  return expr;
}

/** Keywords with distinct, non-positional names (attribute-like). */
function arbKwargs(value: fc.Arbitrary<Expr>): fc.Arbitrary<Keyword[]> {
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom('out_dtype', 'mode', 'alpha', 'flag', 'axis'), value), {
      maxLength: 2,
      selector: ([n]) => n,
    })
    .map((ks) => ks.map(([n, v]) => b.kw(n, v)));
}

// ---------------------------------------------------------------------------------------
// Types and params

export const arbType: fc.Arbitrary<TypeExpr> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(arbShape, arbDtype).map(([s, d]) => b.tensor(s, d)) },
  { weight: 2, arbitrary: fc.tuple(arbShape, arbDtype).map(([s, d]) => b.tensor(s, d, true)) },
  { weight: 1, arbitrary: fc.tuple(arbShape, arbDtype).map(([s, d]) => b.tile(s, d)) },
  { weight: 2, arbitrary: arbDtype.map(b.scalar) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        arbSmallInt,
        fc.constant(null).map(() => b.name('N')),
      )
      .map((s) => b.arrayT(s, b.dtype('TASK_ID'))),
  },
);

const arbReturnType: fc.Arbitrary<TypeExpr> = fc.oneof(
  { weight: 3, arbitrary: arbType },
  { weight: 1, arbitrary: fc.array(arbType, { minLength: 2, maxLength: 3 }).map((ts) => b.tupleT(...ts)) },
);

const arbParams: fc.Arbitrary<Param[]> = fc
  .uniqueArray(fc.tuple(arbName, arbType, fc.constantFrom<Direction>('in', 'in', 'out', 'inout')), { maxLength: 5, selector: ([n]) => n })
  .map((ps) =>
    ps.map(([n, t, d], i) =>
      i === 2 && n.length === 1
        ? b.param(n, null) // an unannotated parameter now and then
        : b.param(n, t, t.kind === 'TensorType' || t.kind === 'TileType' ? d : 'in'),
    ),
  );

// ---------------------------------------------------------------------------------------
// Op calls (known ops, in the frontend's normalised form)

const EXPR_STMT_OPS = [
  'tile.store',
  'tensor.write',
  'pld.tile.get',
  'pld.tensor.get',
  'pld.tile.remote_store',
  'pld.tile.put',
  'pld.tensor.put',
  'pld.system.notify',
  'pld.system.wait',
  'system.cacheinvalid',
  'system.fence',
];
const VALUE_OPS = ['tensor.read', 'tile.load', 'array.create', 'array.get_element', 'system.task_dummy'];

function arbKnownOp(canonical: string, e: fc.Arbitrary<Expr>): fc.Arbitrary<Expr> {
  const spec = OPS.find((o) => o.canonical === canonical)!;
  const argArbs = spec.params.map((p) => (p.enum ? arbEnum(p.enum) : /offsets|indices|shapes/.test(p.name) ? arbOffsets : e));
  // `cacheinvalid()` (whole GM) or the full region form; other ops take all their positions.
  const argsArb =
    canonical === 'system.cacheinvalid'
      ? fc.oneof(fc.constant([] as Expr[]), fc.tuple(...argArbs))
      : argArbs.length === 0
        ? fc.constant([] as Expr[])
        : fc.tuple(...argArbs);
  let kwArb: fc.Arbitrary<Keyword[]> = fc.constant([]);
  if (canonical === 'tile.load') kwArb = fc.option(arbEnum('CachePolicy'), { nil: null }).map((v) => (v ? [b.kw('cache', v)] : []));
  if (canonical === 'system.task_dummy') kwArb = fc.array(arbName, { maxLength: 2 }).map((ns) => [b.kw('deps', b.list(...ns.map(b.name)))]);
  return fc.tuple(argsArb, kwArb).map(([args, kws]) => b.call(canonical, [...args], kws));
}

/** A subscript index with at least one slice (`0:H`, `:`, `i, 0:W`). */
const arbSliceIndex: fc.Arbitrary<Expr> = fc
  .array(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.option(arbSmallInt, { nil: null }), fc.option(fc.oneof(arbSmallInt, arbName.map(b.name)), { nil: null }))
          .map(([l, u]) => b.slice(l, u)),
      },
      { weight: 1, arbitrary: fc.oneof(arbSmallInt, arbName.map(b.name)) },
    ),
    { minLength: 1, maxLength: 3 },
  )
  .filter((items) => items.some((x) => x.kind === 'Slice'))
  .map((items) => (items.length === 1 ? items[0]! : b.tuple(...items)));

// ---------------------------------------------------------------------------------------
// Statements

interface Ctx {
  /** Kernels `pl.submit` may name. */
  kernels: string[];
  /** Functions `self.f(...)` may call. */
  helpers: string[];
  orchestration: boolean;
}

function arbStmt(ctx: Ctx, o: Required<GenOptions>): fc.Arbitrary<Stmt[]> {
  const e = arbExpr(o.exprDepth);
  const small = arbExpr(1);
  const submitArb = fc
    .tuple(
      fc.constantFrom(...ctx.kernels),
      fc.array(small, { maxLength: 3 }),
      fc.option(fc.array(arbName.map(b.name), { maxLength: 3 }), { nil: null }),
      arbKwargs(small),
    )
    .map(([k, args, deps, kws]) => b.submit(k, args, deps, kws));

  const simple: fc.Arbitrary<Stmt>[] = [
    fc.tuple(arbName, e).map(([n, v]) => b.assign(n, v)),
    fc.tuple(arbName, arbType, e).map(([n, t, v]) => b.assign(n, v, t)),
    fc
      .tuple(arbName, arbName, submitArb)
      .filter(([x, y]) => x !== y)
      .map(([x, y, s]) => b.assignTuple([x, y], s)),
    fc.tuple(arbName, submitArb).map(([x, s]) => b.assignTuple([x], s)),
    fc.tuple(arbName, small, small).map(([n, i, v]) => b.elementWrite(n, i, v)),
    fc
      .constantFrom(...EXPR_STMT_OPS)
      .chain((op) => arbKnownOp(op, small))
      .map(b.exprStmt),
    fc
      .tuple(
        arbName,
        fc.constantFrom(...VALUE_OPS).chain((op) => arbKnownOp(op, small)),
      )
      .map(([n, v]) => b.assign(n, v)),
    fc.tuple(fc.constantFrom(...ctx.helpers), fc.array(small, { maxLength: 3 })).map(([f, args]) => b.exprStmt(b.selfCall(f, args))),
    fc.tuple(arbName, arbEnum('CachePolicy')).map(([n, p]) => b.exprStmt(b.call('set_cache_policy', [b.name(n), p]))),
    fc.option(e, { nil: null }).map((v) => b.ret(v)),
    fc.constant(null).map(() => b.pass()),
    fc.constant(null).map(() => b.brk()),
    fc.constant(null).map(() => b.cont()),
    fc.tuple(arbName, fc.array(small, { minLength: 1, maxLength: 2 })).map(([n, vs]) => b.assign(n, b.call('pl.yield_', vs))),
    // slices: a read and a write (`dst[0:H, :] = src[...]`)
    fc.tuple(arbName, arbName, arbSliceIndex).map(([n, x, idx]) => b.assign(n, b.sub(b.name(x), idx))),
    fc.tuple(arbName, arbSliceIndex, small).map(([n, idx, v]) => b.sliceWrite(n, idx, v)),
    // nested tuple targets: `(a, b), tid = pl.submit(...)`
    fc
      .tuple(fc.uniqueArray(arbName, { minLength: 3, maxLength: 3 }), submitArb)
      .map(([[x, y, z], s]) => b.assignNested(b.tuple(b.tuple(b.name(x!), b.name(y!)), b.name(z!)), s)),
    // a deps= comprehension (the whole list, or one element of it); its bound is a constant, as
    // PyPTO unrolls it at parse time (an IR variable there is an error)
    fc
      .tuple(
        fc.constantFrom(...ctx.kernels),
        arbName,
        arbName,
        fc.oneof(fc.integer({ min: 0, max: 6 }).map(b.int), fc.constantFrom('N', 'M').map(b.name)),
        fc.boolean(),
      )
      .map(([k, arr, i, n, whole]) => {
        const c = b.comp(b.sub(b.name(arr), b.name(i)), i, b.otherCall(b.name('range'), [n]));
        return b.exprStmt(b.submit(k, [], whole ? [c] : [b.name(arr), c]));
      }),
  ];
  const simpleArb = fc.oneof(...simple);

  const { stmt } = fc.letrec<{ stmt: Stmt; body: Stmt[] }>((tie) => {
    const body = tie('body');
    const stmtRef = tie('stmt');
    const rangeArgs = fc.oneof(
      small.map((s) => [b.int(0), s, b.int(1)]),
      fc.tuple(small, small).map(([s, t]) => [s, t, b.int(1)]),
      fc.tuple(small, small, small).map(([s, t, u]) => [s, t, u]),
    );
    const iter = fc.option(
      fc
        .uniqueArray(arbName, { minLength: 1, maxLength: 2 })
        .chain((names) => fc.array(small, { minLength: names.length, maxLength: names.length }).map((vals) => ({ names, vals }))),
      { nil: null },
    );
    const forArb = fc
      .tuple(
        fc.constantFrom<'range' | 'parallel' | 'unroll' | 'pipeline'>('range', 'parallel', 'unroll', 'pipeline'),
        arbName,
        rangeArgs,
        iter,
        body,
        fc.option(arbSmallInt, { nil: null }),
      )
      .filter(([, t, , it]) => !it?.names.includes(t))
      .map(([kind, t, args, it, bd, stage]) =>
        b.fors(kind, t, args, bd, {
          iterArgs: it?.names ?? [],
          initValues: it?.vals ?? [],
          kwargs: kind === 'pipeline' && stage ? [b.kw('stage', stage)] : [],
        }),
      );
    const spmdFor = fc.tuple(arbName, small, body).map(([t, n, bd]) => b.fors('spmd', t, [n], bd));
    const splitAiv = fc
      .tuple(arbName, fc.constantFrom('UP_DOWN', 'LEFT_RIGHT', 'NONE'), body)
      .map(([t, m, bd]) =>
        b.fors('split_aiv', t, [b.int(2)], bd, { kwargs: [b.kw('mode', b.attr(b.attr(b.name('pl'), 'SplitMode'), m))] }),
      );
    const ssaWhile = fc
      .tuple(fc.uniqueArray(arbName, { minLength: 1, maxLength: 2 }), small, body)
      .chain(([names, c, bd]) =>
        fc
          .array(small, { minLength: names.length, maxLength: names.length })
          .map((vals) => b.fors('while', null, [], bd, { iterArgs: names, initValues: vals, cond: c })),
      );
    const elifArb = fc.tuple(e, body, fc.oneof(fc.constant([] as Stmt[]), body)).map(([c, t, els]) => [b.ifs(c, t, els)]);
    const ifArb = fc.tuple(e, body, fc.oneof(fc.constant([] as Stmt[]), body, elifArb)).map(([c, t, els]) => b.ifs(c, t, els));
    const scopeArb = fc.oneof(
      body.map((bd) => b.scope('manual', bd)),
      body.map((bd) => b.scope('auto', bd)),
      fc
        .tuple(
          body,
          arbEnum('Level'),
          fc.option(arbStr, { nil: null }),
          fc.option(fc.array(arbName.map(b.name), { maxLength: 2 }), { nil: null }),
          fc.option(arbName, { nil: null }),
        )
        .map(([bd, lvl, hint, deps, as]) =>
          b.scope('at', bd, {
            kwargs: [b.kw('level', lvl), ...(hint ? [b.kw('name_hint', hint)] : [])],
            deps,
            asName: as,
          }),
        ),
      fc.tuple(body, small).map(([bd, n]) => b.scope('spmd', bd, { args: [n] })),
      body.map((bd) => b.scope('cluster', bd)),
    );
    return {
      stmt: fc.oneof(
        { maxDepth: o.maxDepth, depthIdentifier: 'gen-stmt' },
        { weight: 8, arbitrary: simpleArb },
        { weight: 2, arbitrary: ifArb },
        { weight: 1, arbitrary: fc.tuple(e, body).map(([c, bd]) => b.whiles(c, bd)) },
        { weight: 2, arbitrary: forArb },
        { weight: 1, arbitrary: spmdFor },
        { weight: 1, arbitrary: splitAiv },
        { weight: 1, arbitrary: ssaWhile },
        { weight: 2, arbitrary: scopeArb },
      ),
      body: fc.array(stmtRef, { minLength: 1, maxLength: o.maxStmts }),
    };
  });
  return stmt.map((s) => [s]);
}

function arbBody(ctx: Ctx, o: Required<GenOptions>): fc.Arbitrary<Stmt[]> {
  return fc.array(arbStmt(ctx, o), { minLength: 1, maxLength: o.maxStmts }).map((ss) => ss.flat());
}

const arbFuncAttrs = fc.option(
  fc
    .array(fc.tuple(fc.nat({ max: 4 }), fc.nat({ max: 1 })), { minLength: 1, maxLength: 2 })
    .map((pairs) => b.dict([b.str('cache_policy'), b.list(...pairs.map(([i, p]) => b.tuple(b.int(i), b.int(p))))])),
  { nil: null, freq: 4 },
);

function arbFunction(fname: string, kind: FunctionKind, ctx: Ctx, o: Required<GenOptions>): fc.Arbitrary<FunctionDef> {
  const deco =
    kind === 'Opaque' || kind === 'InCore'
      ? fc.option(arbEnum('Level'), { nil: null, freq: 4 }).map((l) => (l ? [b.kw('level', l)] : []))
      : fc.constant([] as Keyword[]);
  // A docstring, sometimes alone (Python accepts a body holding only a docstring).
  const docstring = fc.option(fc.stringMatching(/^[a-zA-Z0-9 .'"\\\n-]{0,12}$/), { nil: null, freq: 3 });
  const body = fc
    .tuple(docstring, arbBody(ctx, o), fc.nat({ max: 5 }))
    .map(([doc, bd, k]) => ({ doc, bd: doc !== null && k === 0 ? [] : bd }));
  // Now and then: written without `self` (PyPTO's printer omits it), or an external kernel (`...` body).
  const shape = fc.constantFrom<'plain' | 'noSelf' | 'external'>('plain', 'plain', 'plain', 'plain', 'noSelf', 'external');
  return fc
    .tuple(arbParams, fc.option(arbReturnType, { nil: null }), body, arbFuncAttrs, deco, shape)
    .map(([params, returns, { doc, bd }, attrs, kws, sh]) => {
      const f = b.func(fname, kind, params, sh === 'external' ? [] : bd, {
        returns,
        attrs,
        decoratorKwargs: kws,
        docstring: sh === 'external' ? null : doc,
      });
      if (sh === 'noSelf') f.noSelf = true;
      if (sh === 'external') f.external = true;
      return f;
    });
}

function withDefaults(opts: GenOptions): Required<GenOptions> {
  return {
    maxDepth: opts.maxDepth ?? 3,
    exprDepth: opts.exprDepth ?? 3,
    maxStmts: opts.maxStmts ?? 4,
    maxFunctions: opts.maxFunctions ?? 2,
  };
}

const DEFAULT_CTX: Ctx = { kernels: ['k0'], helpers: ['k0', 'helper'], orchestration: false };

/** A random InCore function (named `k0` unless given). */
export function arbInCoreFunction(opts: GenOptions = {}, fname = 'k0'): fc.Arbitrary<FunctionDef> {
  return arbFunction(fname, 'InCore', DEFAULT_CTX, withDefaults(opts));
}

/** A random Orchestration function (named `main` unless given). */
export function arbOrchestrationFunction(opts: GenOptions = {}, fname = 'main'): fc.Arbitrary<FunctionDef> {
  return arbFunction(fname, 'Orchestration', { ...DEFAULT_CTX, orchestration: true }, withDefaults(opts));
}

/** A random program: InCore kernels `k0..`, an optional Opaque `helper`, Orchestration `main..`. */
export function arbProgram(opts: GenOptions = {}): fc.Arbitrary<Program> {
  const o = withDefaults(opts);
  return fc
    .tuple(arbUpperName, fc.integer({ min: 1, max: o.maxFunctions }), fc.integer({ min: 0, max: o.maxFunctions }), fc.boolean())
    .chain(([pname, nk, no, helper]) => {
      const kernels = Array.from({ length: nk }, (_, i) => `k${i}`);
      const ctx: Ctx = { kernels, helpers: helper ? [...kernels, 'helper'] : kernels, orchestration: false };
      const fs: fc.Arbitrary<FunctionDef>[] = kernels.map((k) => arbFunction(k, 'InCore', ctx, o));
      if (helper) fs.push(arbFunction('helper', 'Opaque', ctx, o));
      for (let i = 0; i < no; i++) fs.push(arbFunction(i === 0 ? 'main' : `main${i}`, 'Orchestration', { ...ctx, orchestration: true }, o));
      return fc.tuple(...fs).map((funcs) => b.program(pname, funcs));
    });
}

/**
 * A random module of JIT kernels (one `jit` program): the functions of a random program as
 * module-level `@pl.jit...` functions (InCore → `@pl.jit.incore`, with `level=` when it had
 * one; Orchestration → `@pl.jit`; Opaque → `@pl.jit.opaque`), calls between them bare.
 */
export function arbJitProgram(opts: GenOptions = {}): fc.Arbitrary<Program> {
  return arbProgram(opts).map((p) => {
    const jitDecorator = (f: FunctionDef): Expr => {
      const form = f.funcKind === 'InCore' ? 'incore' : f.funcKind === 'Orchestration' ? null : 'opaque';
      const dotted = form ? b.attr(b.attr(b.name('pl'), 'jit'), form) : b.attr(b.name('pl'), 'jit');
      const level = f.decoratorKwargs.find((k) => k.name === 'level');
      return form === 'incore' && level ? b.call('pl.jit.incore', [], [level]) : dotted;
    };
    const names = new Set(p.functions.map((f) => f.name));
    const functions = p.functions.map((f) => {
      const g: FunctionDef = { ...f, decoratorKwargs: [], bareDecorator: false, jit: jitDecorator(f) };
      delete g.noSelf;
      g.body = bareCalls(g.body, names);
      return g;
    });
    return { ...p, name: 'jit', jit: true, functions };
  });
}

/**
 * Every `self.f(...)` call in `body` as the bare `f(...)` of a JIT module: a call of a kernel
 * of the module (`names`), else of a plain name (what the frontend reads `f(...)` as).
 */
function bareCalls<T>(x: T, names: ReadonlySet<string>): T {
  if (Array.isArray(x)) return x.map((v) => bareCalls(v, names)) as T;
  if (x !== null && typeof x === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) o[k] = bareCalls(v, names);
    if (o['kind'] === 'self' && typeof o['name'] === 'string') {
      if (names.has(o['name'])) o['bare'] = true;
      else return { kind: 'other', expr: b.name(o['name']) } as T;
    }
    return o as T;
  }
  return x;
}

/** One to `max` programs with distinct names. */
export function arbPrograms(opts: GenOptions = {}, max = 2): fc.Arbitrary<Program[]> {
  return fc.uniqueArray(arbProgram(opts), { minLength: 1, maxLength: max, selector: (p) => p.name });
}

/** The canonical module text of generated programs (no constants). */
export function programText(programs: Program | Program[]): string {
  return printModule({ constants: new Map(), programs: Array.isArray(programs) ? programs : [programs] });
}
