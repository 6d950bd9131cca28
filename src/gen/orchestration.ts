/**
 * fast-check arbitraries of orchestration programs for ExpandManualPhaseFence: manual and auto
 * scopes, sequential and parallel loops with constant, zero or unknown trip counts, Submits
 * whose deps are a whole Array[TASK_ID], a scalar task id, several arrays or a slot, element
 * writes, loop-carried arrays (iter-args + yield), plain copies, nested loops, if / while.
 * Used by the pass's properties (idempotence, dependency preservation) and by `verify`.
 */
import fc from 'fast-check';
import type { Expr, FunctionDef, Program, Stmt } from '../ir/nodes.js';
import * as b from './build.js';

export interface OrchGenOptions {
  maxDepth?: number;
  maxStmts?: number;
}

const ARRAYS = ['tids', 'quad', 'pair', 'trio'];

function orchParams(): FunctionDef['params'] {
  return [
    b.param('x', b.tensor([b.int(8), b.int(8)], b.dtype('FP32'))),
    b.param('tids', b.arrayT(b.name('N'), b.dtype('TASK_ID'))),
    b.param('quad', b.arrayT(b.int(4), b.dtype('TASK_ID'))),
    b.param('pair', b.arrayT(b.int(2), b.dtype('TASK_ID'))),
    b.param('trio', b.arrayT(b.int(3), b.dtype('TASK_ID'))),
    b.param('t', b.scalar(b.dtype('TASK_ID'))),
    b.param('n', b.scalar(b.dtype('INDEX'))),
    b.param('c', b.scalar(b.dtype('BOOL'))),
  ];
}

const arbArray = fc.constantFrom(...ARRAYS);
const submit = (deps: Expr[], target: string): Stmt => b.assignTuple(['x', target], b.submit('k', [b.name('x')], deps));

/** Leaf statements of an orchestration body. */
function arbLeaf(idx: fc.Arbitrary<number>): fc.Arbitrary<Stmt> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(arbArray, idx).map(([a, i]) => submit([b.name(a)], `tid${i}`)) },
    { weight: 1, arbitrary: idx.map((i) => submit([b.name('t')], `tid${i}`)) },
    { weight: 1, arbitrary: fc.tuple(arbArray, idx).map(([a, i]) => submit([b.name(a), b.name('t')], `tid${i}`)) },
    { weight: 1, arbitrary: fc.tuple(arbArray, arbArray, idx).map(([a, a2, i]) => submit([b.name(a), b.name(a2)], `tid${i}`)) },
    { weight: 1, arbitrary: idx.map((i) => submit([], `tid${i}`)) },
    { weight: 1, arbitrary: fc.tuple(arbArray, idx).map(([a, i]) => b.elementWrite(a, b.int(i % 2), b.name('t'))) },
    { weight: 1, arbitrary: arbArray.map((a) => b.assign(`${a}_copy`, b.name(a))) },
    { weight: 1, arbitrary: arbArray.map((a) => b.assign('u', b.call('system.task_dummy', [], [b.kw('deps', b.list(b.name(a)))]))) },
  );
}

const arbStop = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }).map((v): Expr => b.int(v)) },
  { weight: 1, arbitrary: fc.constant<Expr>(b.int(0)) },
  { weight: 1, arbitrary: fc.constant<Expr>(b.name('n')) },
);

function arbBody(depth: number, o: Required<OrchGenOptions>): fc.Arbitrary<Stmt[]> {
  const idx = fc.integer({ min: 0, max: 9 });
  const leaf = arbLeaf(idx);
  const stmt: fc.Arbitrary<Stmt> =
    depth <= 0
      ? leaf
      : fc.oneof(
          { weight: 5, arbitrary: leaf },
          {
            weight: 3,
            arbitrary: fc
              .tuple(fc.constantFrom<'range' | 'parallel'>('range', 'parallel'), arbStop, arbBody(depth - 1, o))
              .map(([kind, stop, body]) => b.fors(kind, 'i', [b.int(0), stop, b.int(1)], body)),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(arbArray, arbBody(depth - 1, o), fc.boolean())
              .map(([a, body, update]) =>
                b.fors(
                  'range',
                  'j',
                  [b.int(0), b.int(2), b.int(1)],
                  [
                    ...body,
                    ...(update ? [b.elementWrite('acc', b.name('j'), b.name('t'))] : []),
                    b.assign(`${a}_out`, b.call('yield_', [b.name('acc')])),
                  ],
                  { iterArgs: ['acc'], initValues: [b.name(a)] },
                ),
              ),
          },
          { weight: 1, arbitrary: fc.tuple(arbBody(depth - 1, o), arbBody(depth - 1, o)).map(([t, e]) => b.ifs(b.name('c'), t, e)) },
          { weight: 1, arbitrary: arbBody(depth - 1, o).map((body) => b.whiles(b.name('c'), body)) },
          { weight: 1, arbitrary: arbBody(depth - 1, o).map((body) => b.scope('auto', body)) },
          { weight: 1, arbitrary: arbBody(depth - 1, o).map((body) => b.scope('manual', body)) },
        );
  return fc.array(stmt, { minLength: 1, maxLength: o.maxStmts });
}

/** A program with one InCore kernel `k` and an Orchestration function whose body is a manual scope. */
export function arbOrchestrationProgram(opts: OrchGenOptions = {}): fc.Arbitrary<Program> {
  const o: Required<OrchGenOptions> = { maxDepth: opts.maxDepth ?? 3, maxStmts: opts.maxStmts ?? 4 };
  return arbBody(o.maxDepth, o).map((body) => {
    const k = b.func('k', 'InCore', [b.param('x', b.tensor([b.int(8), b.int(8)], b.dtype('FP32')))], [b.pass()]);
    const main = b.func('main', 'Orchestration', orchParams(), [b.scope('manual', body)]);
    return b.program('Orch', [k, main]);
  });
}

/** The module text of a generated orchestration program, with the constant N defined. */
export function orchestrationModuleText(p: Program, printProgramText: (p: Program) => string): string {
  return `import pypto.language as pl\n\nN = 4\n\n\n${printProgramText(p)}`;
}
