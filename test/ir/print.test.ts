import { describe, expect, it } from 'vitest';
import {
  arrayT,
  assign,
  assignTuple,
  attr,
  bin,
  bool,
  call,
  cont,
  dict,
  dtype,
  elementWrite,
  enumLit,
  exprStmt,
  float,
  fors,
  func,
  ifs,
  int,
  kw,
  list,
  name,
  none,
  param,
  pass,
  program,
  ret,
  scalar,
  scope,
  selfCall,
  str,
  sub,
  submit,
  tensor,
  tile,
  tuple,
  tupleT,
  unary,
  whiles,
} from '../../src/gen/build.js';
import { stripSpans, structurallyEqual } from '../../src/ir/equal.js';
import { printExpr, printModule, printProgram, printStmt, printString, printType } from '../../src/ir/print.js';

const n = name;

describe('printExpr precedence', () => {
  const cases: [ReturnType<typeof bin>, string][] = [
    [bin('+', n('a'), bin('*', n('b'), n('c'))), 'a + b * c'],
    [bin('*', bin('+', n('a'), n('b')), n('c')), '(a + b) * c'],
    [bin('-', n('a'), bin('-', n('b'), n('c'))), 'a - (b - c)'],
    [bin('-', bin('-', n('a'), n('b')), n('c')), 'a - b - c'],
    [bin('+', n('a'), bin('+', n('b'), n('c'))), 'a + (b + c)'],
    [bin('**', n('a'), bin('**', n('b'), n('c'))), 'a ** b ** c'],
    [bin('**', bin('**', n('a'), n('b')), n('c')), '(a ** b) ** c'],
    [bin('**', unary('-', n('a')), n('b')), '(-a) ** b'],
    [bin('**', n('a'), unary('-', n('b'))), 'a ** -b'],
    [unary('-', bin('**', n('a'), n('b'))), '-a ** b'],
    [unary('-', bin('+', n('a'), n('b'))), '-(a + b)'],
    [unary('-', unary('-', n('a'))), '- -a'],
    [unary('-', int(-1)), '- -1'],
    [bin('*', int(-1), n('a')), '-1 * a'],
    [bin('**', int(-2), n('a')), '(-2) ** a'],
    [unary('not', bin('==', n('a'), n('b'))), 'not a == b'],
    [bin('==', unary('not', n('a')), n('b')), '(not a) == b'],
    [bin('and', unary('not', n('a')), n('b')), 'not a and b'],
    [unary('not', bin('and', n('a'), n('b'))), 'not (a and b)'],
    [bin('or', bin('and', n('a'), n('b')), n('c')), 'a and b or c'],
    [bin('and', bin('or', n('a'), n('b')), n('c')), '(a or b) and c'],
    [bin('<', bin('<', n('a'), n('b')), n('c')), '(a < b) < c'],
    [bin('==', n('a'), bin('<', n('b'), n('c'))), 'a == (b < c)'],
    [bin('|', n('a'), bin('&', n('b'), n('c'))), 'a | b & c'],
    [bin('&', bin('|', n('a'), n('b')), n('c')), '(a | b) & c'],
    [bin('<<', n('a'), bin('+', n('b'), int(1))), 'a << b + 1'],
    [bin('+', bin('<<', n('a'), n('b')), int(1)), '(a << b) + 1'],
    [bin('^', bin('^', n('a'), n('b')), n('c')), 'a ^ b ^ c'],
    [bin('//', n('N'), int(2)), 'N // 2'],
    [bin('%', bin('*', n('a'), n('b')), n('c')), 'a * b % c'],
    [unary('~', bin('&', n('a'), n('b'))), '~(a & b)'],
    [bin('<', unary('-', n('a')), n('b')), '-a < b'],
  ];
  for (const [e, text] of cases) it(text, () => expect(printExpr(e)).toBe(text));
});

describe('printExpr atoms and calls', () => {
  it('literals', () => {
    expect(printExpr(int(42))).toBe('42');
    expect(printExpr(float('1.50'))).toBe('1.50');
    expect(printExpr(float('1e-3'))).toBe('1e-3');
    expect(printExpr(bool(true))).toBe('True');
    expect(printExpr(none())).toBe('None');
    expect(printExpr(str('a"b\\c\n'))).toBe('"a\\"b\\\\c\\n"');
    expect(printString("it's")).toBe('"it\'s"');
  });
  it('collections', () => {
    expect(printExpr(tuple(n('x')))).toBe('(x,)');
    expect(printExpr(tuple())).toBe('()');
    expect(printExpr(tuple(n('x'), int(1)))).toBe('(x, 1)');
    expect(printExpr(list())).toBe('[]');
    expect(printExpr(list(int(1), list(n('N'))))).toBe('[1, [N]]');
    expect(printExpr(dict([str('cache_policy'), list(tuple(int(1), int(1)))]))).toBe('{"cache_policy": [(1, 1)]}');
  });
  it('attributes and subscripts', () => {
    expect(printExpr(attr(n('x'), 'shape'))).toBe('x.shape');
    expect(printExpr(sub(attr(n('x'), 'shape'), int(0)))).toBe('x.shape[0]');
    expect(printExpr(attr(bin('+', n('a'), n('b')), 'real'))).toBe('(a + b).real');
    expect(printExpr(attr(int(1), 'real'))).toBe('(1).real');
    expect(printExpr(sub(n('x'), tuple(n('i'), n('j'))))).toBe('x[i, j]');
    expect(printExpr(sub(n('x'), tuple(n('i'))))).toBe('x[(i,)]');
  });
  it('enums', () => {
    expect(printExpr(enumLit('NotifyOp', 'AtomicAdd'))).toBe('pld.NotifyOp.AtomicAdd');
    expect(printExpr(enumLit('CachePolicy', 'BYPASS'))).toBe('pl.CachePolicy.BYPASS');
    expect(printExpr(dtype('FP32'))).toBe('pl.FP32');
  });
  it('ops print qualified names, positional args (keyword-only ones as keywords), sorted keywords', () => {
    expect(printExpr(call('pl.store', [n('t'), list(int(0), int(0)), n('out')]))).toBe('pl.tile.store(t, [0, 0], out)');
    expect(printExpr(call('pl.load', [n('x'), list(int(0)), list(int(32))], [kw('cache', enumLit('CachePolicy', 'BYPASS'))]))).toBe(
      'pl.tile.load(x, [0], [32], cache=pl.CachePolicy.BYPASS)',
    );
    expect(printExpr(call('pld.system.notify', [n('sig'), n('p'), list(int(0), int(0)), int(1), enumLit('NotifyOp', 'AtomicAdd')]))).toBe(
      'pld.system.notify(sig, p, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)',
    );
    expect(printExpr(call('pl.add', [n('a'), n('b')], [kw('z', int(1)), kw('a', int(2))]))).toBe('pl.add(a, b, a=2, z=1)');
    expect(printExpr(call('pl.system.fence'))).toBe('pl.system.fence()');
    expect(printExpr(selfCall('helper', [n('x')]))).toBe('self.helper(x)');
  });
  it('submit', () => {
    expect(printExpr(submit('k', [n('x'), n('y')], [n('tids')]))).toBe('pl.submit(self.k, x, y, deps=[tids])');
    expect(printExpr(submit('k', [n('x')]))).toBe('pl.submit(self.k, x)');
    expect(printExpr(submit('k', [], []))).toBe('pl.submit(self.k, deps=[])');
  });
});

describe('printType', () => {
  it('all kinds', () => {
    expect(printType(tensor([int(1), n('N')], dtype('FP32')))).toBe('pl.Tensor[[1, N], pl.FP32]');
    expect(printType(tensor([int(1), n('N')], dtype('INT32'), true))).toBe('pld.DistributedTensor[[1, N], pl.INT32]');
    expect(printType(tile([int(16), int(16)], dtype('FP16'), [enumLit('MemorySpace', 'Vec')]))).toBe(
      'pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Vec]',
    );
    expect(printType(scalar(dtype('TASK_ID')))).toBe('pl.Scalar[pl.TASK_ID]');
    expect(printType(arrayT(n('N'), dtype('TASK_ID')))).toBe('pl.Array[N, pl.TASK_ID]');
    expect(printType(tupleT(scalar(dtype('INT32')), scalar(dtype('TASK_ID'))))).toBe('tuple[pl.Scalar[pl.INT32], pl.Scalar[pl.TASK_ID]]');
  });
});

describe('printStmt', () => {
  it('assignments', () => {
    expect(printStmt(assign('x', int(1)))).toBe('x = 1\n');
    expect(printStmt(assign('x', int(1), scalar(dtype('INDEX'))))).toBe('x: pl.Scalar[pl.INDEX] = 1\n');
    expect(printStmt(assignTuple(['a', 'tid'], submit('k', [n('x')])))).toBe('a, tid = pl.submit(self.k, x)\n');
    expect(printStmt(assignTuple(['a'], n('t')))).toBe('(a,) = t\n');
    expect(printStmt(elementWrite('tids', n('i'), n('t')))).toBe('tids[i] = t\n');
    // not the same array: no sugar
    expect(printStmt(assign('u', call('array.update_element', [n('tids'), n('i'), n('t')])))).toBe(
      'u = pl.array.update_element(tids, i, t)\n',
    );
  });
  it('if / elif / else', () => {
    const s = ifs(n('a'), [pass()], [ifs(n('b'), [cont()], [exprStmt(call('pl.system.fence'))])]);
    expect(printStmt(s)).toBe('if a:\n    pass\nelif b:\n    continue\nelse:\n    pl.system.fence()\n');
    const empty = ifs(n('a'), [], []);
    expect(printStmt(empty)).toBe('if a:\n    pass\n');
  });
  it('loops', () => {
    expect(printStmt(fors('range', 'i', [int(0), n('N'), int(1)], [pass()]))).toBe('for i in pl.range(N):\n    pass\n');
    expect(printStmt(fors('range', 'i', [int(2), n('N'), int(1)], [pass()]))).toBe('for i in pl.range(2, N):\n    pass\n');
    expect(printStmt(fors('parallel', 'i', [int(0), n('N'), int(2)], [pass()]))).toBe('for i in pl.parallel(0, N, 2):\n    pass\n');
    expect(printStmt(fors('unroll', 'i', [n('N')], [pass()]))).toBe('for i in pl.unroll(N):\n    pass\n');
    expect(printStmt(fors('pipeline', 'i', [int(0), int(8), int(1)], [pass()], { kwargs: [kw('stage', int(2))] }))).toBe(
      'for i in pl.pipeline(8, stage=2):\n    pass\n',
    );
    expect(printStmt(fors('spmd', 'i', [n('N')], [pass()]))).toBe('for i in pl.spmd(N):\n    pass\n');
    expect(
      printStmt(
        fors('range', 'i', [int(0), int(4), int(1)], [assign('o', call('pl.yield_', [n('a')]))], {
          iterArgs: ['a'],
          initValues: [n('x')],
        }),
      ),
    ).toBe('for i, (a,) in pl.range(4, init_values=(x,)):\n    o = pl.yield_(a)\n');
    expect(
      printStmt(
        fors('while', null, [], [assign('y', call('pl.yield_', [n('x')]))], {
          iterArgs: ['x'],
          initValues: [int(0)],
          cond: bin('<', n('x'), int(4)),
        }),
      ),
    ).toBe('for (x,) in pl.while_(init_values=(0,)):\n    pl.cond(x < 4)\n    y = pl.yield_(x)\n');
    expect(printStmt(whiles(bin('<', n('x'), int(4)), []))).toBe('while x < 4:\n    pass\n');
  });
  it('scopes', () => {
    expect(printStmt(scope('manual', [pass()]))).toBe('with pl.scope(mode=pl.ScopeMode.MANUAL):\n    pass\n');
    expect(printStmt(scope('auto', [pass()]))).toBe('with pl.scope():\n    pass\n');
    expect(
      printStmt(
        scope('at', [pass()], {
          kwargs: [kw('name_hint', str('mm')), kw('level', enumLit('Level', 'CORE_GROUP'))],
          deps: [n('t')],
          asName: 'tid',
        }),
      ),
    ).toBe('with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm", deps=[t]) as tid:\n    pass\n');
    expect(printStmt(scope('spmd', [pass()], { args: [n('N')] }))).toBe('with pl.spmd(N):\n    pass\n');
    expect(printStmt(scope('cluster', [pass()]))).toBe('with pl.cluster():\n    pass\n');
  });
  it('cache-policy declarations print first, and replace pass', () => {
    const decl = exprStmt(call('pl.set_cache_policy', [n('b'), enumLit('CachePolicy', 'BYPASS')]));
    const decl2 = exprStmt(call('pl.set_cache_policy', [n('a'), enumLit('CachePolicy', 'DEFAULT')]));
    const s = scope('at', [assign('x', int(1)), decl, assign('y', int(2)), decl2], {
      kwargs: [kw('level', enumLit('Level', 'CORE_GROUP'))],
    });
    expect(printStmt(s)).toBe(
      [
        'with pl.at(level=pl.Level.CORE_GROUP):',
        '    pl.set_cache_policy(b, pl.CachePolicy.BYPASS)',
        '    pl.set_cache_policy(a, pl.CachePolicy.DEFAULT)',
        '    x = 1',
        '    y = 2',
        '',
      ].join('\n'),
    );
    expect(printStmt(scope('auto', [decl]))).toBe('with pl.scope():\n    pl.set_cache_policy(b, pl.CachePolicy.BYPASS)\n');
  });
});

describe('functions and modules', () => {
  const k = func(
    'kernel',
    'InCore',
    [param('x', tensor([int(1), n('N')], dtype('FP32'))), param('y', tensor([int(1), n('N')], dtype('FP32')), 'out')],
    [exprStmt(call('pl.store', [n('x'), list(int(0), int(0)), n('y')]))],
  );
  const longSig = func(
    'main',
    'Orchestration',
    [
      param('data', tensor([n('ROWS'), n('COLS')], dtype('FP32'))),
      param('out', tensor([n('ROWS'), n('COLS')], dtype('FP32')), 'inout'),
      param('tids', arrayT(int(4), dtype('TASK_ID'))),
    ],
    [ret(n('out'))],
    { returns: tensor([n('ROWS'), n('COLS')], dtype('FP32')) },
  );
  const opaque = func('helper', 'Opaque', [], [], { attrs: dict([str('cache_policy'), list(tuple(int(1), int(1)))]) });
  const withKw = func('g', 'Opaque', [], [ret()], { decoratorKwargs: [kw('level', enumLit('Level', 'CHIP'))] });

  it('program', () => {
    expect(printProgram(program('P', [k, longSig, opaque, withKw]))).toBe(
      [
        '@pl.program',
        'class P:',
        '    @pl.function(type=pl.FunctionType.InCore)',
        '    def kernel(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):',
        '        pl.tile.store(x, [0, 0], y)',
        '',
        '    @pl.function(type=pl.FunctionType.Orchestration)',
        '    def main(',
        '        self,',
        '        data: pl.Tensor[[ROWS, COLS], pl.FP32],',
        '        out: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],',
        '        tids: pl.Array[4, pl.TASK_ID],',
        '    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:',
        '        return out',
        '',
        '    @pl.function',
        '    def helper(self):',
        '        pl.func_attr({"cache_policy": [(1, 1)]})',
        '',
        '    @pl.function(level=pl.Level.CHIP)',
        '    def g(self):',
        '        return',
        '',
      ].join('\n'),
    );
  });

  it('module header: imports, used constants, two blank lines between programs', () => {
    const notify = func('n', 'InCore', [], [exprStmt(call('pld.system.fence'))]);
    const text = printModule({
      constants: new Map<string, number | number[]>([
        ['N', 8],
        ['UNUSED', 1],
        ['SHAPE', [16, 64]],
      ]),
      programs: [program('A', [k]), program('B', [notify, func('s', 'InCore', [], [assign('z', n('SHAPE'))])])],
    });
    expect(text).toBe(
      [
        'import pypto.language as pl',
        'import pypto.language.distributed as pld',
        '',
        'N = 8',
        'SHAPE = [16, 64]',
        '',
        '',
        '@pl.program',
        'class A:',
        '    @pl.function(type=pl.FunctionType.InCore)',
        '    def kernel(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):',
        '        pl.tile.store(x, [0, 0], y)',
        '',
        '',
        '@pl.program',
        'class B:',
        '    @pl.function(type=pl.FunctionType.InCore)',
        '    def n(self):',
        '        pld.system.fence()',
        '',
        '    @pl.function(type=pl.FunctionType.InCore)',
        '    def s(self):',
        '        z = SHAPE',
        '',
      ].join('\n'),
    );
    expect(printModule({ constants: new Map(), programs: [] })).toBe('');
  });
});

describe('structural equality', () => {
  it('ignores spans, keyword order, elif flag and declaration position', () => {
    const a = call('pl.add', [n('a')], [kw('x', int(1)), kw('y', int(2))]);
    const b = call('pl.add', [n('a')], [kw('y', int(2)), kw('x', int(1))]);
    b.start = 3;
    b.end = 9;
    expect(structurallyEqual(a, b)).toBe(true);
    const decl = exprStmt(call('pl.set_cache_policy', [n('b'), enumLit('CachePolicy', 'BYPASS')]));
    expect(structurallyEqual(scope('auto', [pass(), decl]), scope('auto', [decl, pass()]))).toBe(true);
    const i1 = ifs(n('a'), [pass()], [ifs(n('b'), [pass()])]);
    const i2 = { ...i1, isElif: false };
    expect(structurallyEqual(i1, i2)).toBe(true);
  });
  it('sees real differences', () => {
    expect(structurallyEqual(call('pl.add', [n('a')]), call('pl.add', [n('b')]))).toBe(false);
    expect(structurallyEqual(float('1.0'), float('1.00'))).toBe(false);
    expect(structurallyEqual(list(int(1)), list(int(1), int(2)))).toBe(false);
    expect(structurallyEqual(assign('x', int(1)), assign('x', int(1), scalar(dtype('INT32'))))).toBe(false);
  });
  it('stripSpans drops spans', () => {
    const s = stripSpans(assign('x', int(1))) as Record<string, unknown>;
    expect(s['start']).toBeUndefined();
    expect(s['end']).toBeUndefined();
    expect(JSON.stringify(s)).not.toMatch(/"(start|end|span)"/);
  });
});

describe('large integers', () => {
  it('print in decimal digits', () => {
    expect(printExpr(int(1e21))).toBe('1000000000000000000000');
    expect(printExpr(int(2 ** 53))).toBe('9007199254740992');
  });
});
