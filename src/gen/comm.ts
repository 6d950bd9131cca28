/**
 * fast-check arbitraries of communication kernels: InCore / AIC / AIV / Orchestration
 * functions over a fixed, meaningful parameter set (window-bound tensors, a plain tensor, a
 * signal, a peer) whose bodies mix publishing writes, notifies, waits, cached reads, existing
 * markers, user calls and Submits under if / for / while / scope nesting. Used by the
 * InsertCommFence properties (idempotence, soundness, conservation) and by `verify`.
 */
import fc from 'fast-check';
import type { Expr, FunctionDef, FunctionKind, Program, Stmt } from '../ir/nodes.js';
import * as b from './build.js';

export interface CommGenOptions {
  /** Maximum statement nesting depth (default 3). */
  maxDepth?: number;
  /** Maximum statements per body (default 5). */
  maxStmts?: number;
  /** More leaf statements (calls of the ops a user's rules name), mixed in with a quarter of the leaves' weight. */
  extraLeaves?: readonly Stmt[];
}

const N = b.name('N');
const zero2 = (): Expr => b.list(b.int(0), b.int(0));
const winShape = (): Expr[] => [b.int(1), b.name('N')];

/** The parameters every generated kernel has. */
function commParams(): FunctionDef['params'] {
  return [
    b.param('t', b.tile(winShape(), b.dtype('FP32'))),
    b.param('win_a', b.tensor(winShape(), b.dtype('FP32'), true)),
    b.param('win_b', b.tensor([b.int(4), b.int(64)], b.dtype('FP32'), true)),
    b.param('x', b.tensor(winShape(), b.dtype('FP32'))),
    b.param('sig', b.tensor([b.int(1), N], b.dtype('INT32'), true)),
    b.param('peer', b.scalar(b.dtype('INT32'))),
    b.param('c', b.scalar(b.dtype('BOOL'))),
  ];
}

const arbWin = fc.constantFrom('win_a', 'win_b');
const arbAnyDst = fc.constantFrom('win_a', 'win_b', 'x');

const wait = (): Stmt => b.exprStmt(b.call('pld.system.wait', [b.name('sig'), zero2(), b.int(1), b.enumLit('WaitCmp', 'Ge')]));
const notify = (): Stmt =>
  b.exprStmt(b.call('pld.system.notify', [b.name('sig'), b.name('peer'), zero2(), b.int(1), b.enumLit('NotifyOp', 'AtomicAdd')]));

/** Leaf statements of a communication kernel. */
const arbLeaf: fc.Arbitrary<Stmt> = fc.oneof(
  { weight: 3, arbitrary: arbAnyDst.map((d) => b.exprStmt(b.call('tile.store', [b.name('t'), zero2(), b.name(d)]))) },
  { weight: 2, arbitrary: arbAnyDst.map((d) => b.exprStmt(b.call('tensor.write', [b.name(d), zero2(), b.float('1.0')]))) },
  { weight: 1, arbitrary: arbWin.map((d) => b.exprStmt(b.call('pld.tile.get', [b.name(d), b.name('win_a'), b.name('peer'), zero2()]))) },
  // Each in its own argument layout: remote_store(src_tile, target, peer, offsets), put(dst, peer, src, stage).
  {
    weight: 1,
    arbitrary: fc
      .constant(null)
      .map(() => b.exprStmt(b.call('pld.tile.remote_store', [b.name('t'), b.name('win_a'), b.name('peer'), zero2()]))),
  },
  {
    weight: 1,
    arbitrary: fc.constant(null).map(() => b.exprStmt(b.call('pld.tile.put', [b.name('win_a'), b.name('peer'), b.name('x'), b.name('t')]))),
  },
  { weight: 2, arbitrary: fc.constant(null).map(notify) },
  { weight: 4, arbitrary: fc.constant(null).map(wait) },
  { weight: 2, arbitrary: arbAnyDst.map((s) => b.assign('v', b.call('tensor.read', [b.name(s), zero2()]))) },
  { weight: 1, arbitrary: arbAnyDst.map((s) => b.assign('tl', b.call('tile.load', [b.name(s), zero2(), b.list(b.int(1), N)]))) },
  { weight: 1, arbitrary: fc.constant(null).map(() => b.exprStmt(b.selfCall('helper', [b.name('x')]))) },
  { weight: 1, arbitrary: fc.constant(null).map(() => b.assign('tid', b.submit('helper', [b.name('x')]))) },
  { weight: 2, arbitrary: fc.constant(null).map(() => b.exprStmt(b.call('system.fence'))) },
  { weight: 2, arbitrary: fc.constant(null).map(() => b.exprStmt(b.call('system.cacheinvalid'))) },
  {
    weight: 1,
    arbitrary: arbWin.map((w) =>
      b.exprStmt(b.call('system.cacheinvalid', [b.name(w), b.list(...(w === 'win_a' ? winShape() : [b.int(4), b.int(64)])), zero2()])),
    ),
  },
  { weight: 1, arbitrary: fc.constant(null).map(() => b.assign('s', b.bin('+', b.name('peer'), b.int(1)))) },
  { weight: 1, arbitrary: fc.constant(null).map(b.pass) },
  // pld.tensor.get into a window / plain tensor, pld.tensor.put to a peer's window.
  {
    weight: 1,
    arbitrary: arbAnyDst.map((d) => b.exprStmt(b.call('pld.tensor.get', [b.name(d), b.name('win_a'), b.name('peer'), zero2()]))),
  },
  {
    weight: 1,
    arbitrary: fc.constant(null).map(() => b.exprStmt(b.call('pld.tensor.put', [b.name('x'), b.name('win_a'), b.name('peer'), zero2()]))),
  },
  // A local write whose destination is an inline expression (an opaque write).
  {
    weight: 1,
    arbitrary: arbWin.map((w) =>
      b.exprStmt(b.call('tile.store', [b.name('t'), zero2(), b.call('tensor.view', [b.name(w), b.list(b.int(1), N), zero2()])])),
    ),
  },
  // The write's result names the same window (`win_a = pl.store(t, [0, 0], win_a)`).
  { weight: 1, arbitrary: arbWin.map((w) => b.assign(w, b.call('tile.store', [b.name('t'), zero2(), b.name(w)]))) },
  // A read nested in another expression.
  { weight: 1, arbitrary: arbAnyDst.map((s) => b.assign('s', b.bin('+', b.call('tensor.read', [b.name(s), zero2()]), b.int(1)))) },
);

/** A body: a non-empty list of statements, nested up to `depth` levels. */
function arbBody(depth: number, o: Required<CommGenOptions>): fc.Arbitrary<Stmt[]> {
  const leaf =
    o.extraLeaves.length === 0
      ? arbLeaf
      : fc.oneof({ weight: 3, arbitrary: arbLeaf }, { weight: 1, arbitrary: fc.constantFrom(...o.extraLeaves) });
  const stmt: fc.Arbitrary<Stmt> =
    depth <= 0
      ? leaf
      : fc.oneof(
          { weight: 6, arbitrary: leaf },
          {
            weight: 1,
            arbitrary: fc.tuple(arbBody(depth - 1, o), fc.option(arbBody(depth - 1, o))).map(([t, e]) => b.ifs(b.name('c'), t, e ?? [])),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(
                fc.constantFrom('range', 'parallel', 'unroll') as fc.Arbitrary<'range' | 'parallel' | 'unroll'>,
                arbBody(depth - 1, o),
                fc.boolean(),
              )
              .map(([kind, body, readsGm]) =>
                b.fors(kind, 'i', [b.int(0), readsGm ? b.call('tensor.read', [b.name('x'), zero2()]) : N, b.int(1)], body),
              ),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(arbBody(depth - 1, o), fc.boolean())
              .map(([body, readsGm]) =>
                b.whiles(b.bin('>', readsGm ? b.call('tensor.read', [b.name('sig'), zero2()]) : b.name('peer'), b.int(0)), body),
              ),
          },
          {
            weight: 1,
            arbitrary: arbBody(depth - 1, o).map((body) =>
              b.ifs(b.bin('>', b.call('tensor.read', [b.name('win_b'), zero2()]), b.int(0)), body, []),
            ),
          },
          {
            weight: 1,
            arbitrary: fc
              .array(fc.constant(null), { minLength: 1, maxLength: 3 })
              .map((ws) =>
                b.fors('range', 'src', [b.int(0), N, b.int(1)], [b.ifs(b.bin('!=', b.name('src'), b.name('peer')), ws.map(wait))]),
              ),
          },
          {
            weight: 1,
            arbitrary: arbBody(depth - 1, o).map((body) =>
              b.scope('at', body, { kwargs: [b.kw('level', b.enumLit('Level', 'CORE_GROUP'))] }),
            ),
          },
        );
  return fc.array(stmt, { minLength: 1, maxLength: o.maxStmts });
}

/** A communication kernel of the given function kind. */
export function arbCommFunction(kind: FunctionKind, fname: string, opts: CommGenOptions = {}): fc.Arbitrary<FunctionDef> {
  const o: Required<CommGenOptions> = { maxDepth: opts.maxDepth ?? 3, maxStmts: opts.maxStmts ?? 5, extraLeaves: opts.extraLeaves ?? [] };
  return arbBody(o.maxDepth, o).map((body) => b.func(fname, kind, commParams(), body));
}

/** A program with a helper, one or two device kernels and an Orchestration function. */
export function arbCommProgram(opts: CommGenOptions = {}): fc.Arbitrary<Program> {
  const kind = fc.constantFrom<FunctionKind>('InCore', 'AIC', 'AIV');
  return fc
    .tuple(
      fc.tuple(kind, arbCommFunction('InCore', 'k0', opts)).map(([k, f]) => ({ ...f, funcKind: k })),
      fc.option(fc.tuple(kind, arbCommFunction('InCore', 'k1', opts)).map(([k, f]) => ({ ...f, funcKind: k }))),
      fc.option(arbCommFunction('Orchestration', 'main', opts), { freq: 2 }),
    )
    .map(([k0, k1, main]) => {
      const helper = b.func('helper', 'InCore', [b.param('x', b.tensor(winShape(), b.dtype('FP32')))], [b.pass()]);
      return b.program('CommKernel', [helper, k0, ...(k1 ? [k1] : []), ...(main ? [main] : [])]);
    });
}

/** The module text of a generated program, with the constant N defined. */
export function commModuleText(p: Program, printProgramText: (p: Program) => string): string {
  return `import pypto.language as pl\nimport pypto.language.distributed as pld\n\nN = 8\n\n\n${printProgramText(p)}`;
}
