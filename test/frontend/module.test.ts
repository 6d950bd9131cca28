/** Module-level behaviour: finding programs, skipping other Python, constants and -D, layout. */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { BlockParser } from '../../src/frontend/block-parser.js';
import { StmtParser } from '../../src/frontend/hand-stmt.js';
import { parseDefines, parseModule, parseModuleIsolated, readModule } from '../../src/frontend/index.js';
import { evalConst } from '../../src/ir/consts.js';
import { structurallyEqual } from '../../src/ir/equal.js';
import type { Expr, Module, Stmt } from '../../src/ir/nodes.js';
import { printModule } from '../../src/ir/print.js';
import { shiftStmts } from '../../src/ir/shift.js';
import { diagOf, st } from './helpers.js';

/** Removes spans so two IRs can be compared structurally. */
function strip(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(strip);
  if (x && typeof x === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x))
      if (k !== 'start' && k !== 'end' && k !== 'depsStart' && k !== 'depsEnd' && k !== 'source') o[k] = strip(v);
    return o;
  }
  return x;
}

const PYTEST_MODULE = `"""A test module full of other Python."""
import pytest
import pypto.language as pl
import pypto.language.distributed as pld

N = 4
SHAPE = [N, 2 * N]
NAME = "not a constant"
N2: int = N - 1
N = 8  # later assignments override

def helper(x, *args, **kw):
    return [y for y in x if y], lambda z: z ** 2, f"{x!r:>{10}} # not a comment"

class NotAProgram:
    @staticmethod
    def g(): return {1, 2}

@pytest.fixture
def fixture():
    s = '''
@pl.program
class InAString:
    pass
'''
    return s

def build(n):
    # a program inside a builder function, indented by 8
    if True:
        @pl.program
        class Built:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, t: pl.Tensor[[1, n], pl.FP32]):
                pl.store(t, [0, 0], t)
        return Built

@pytest.mark.parametrize("x", [1, 2])
def test_it(x):
    assert x in (1, 2)

@pl.program
class Top:
  @pl.function
  def f(self, a: pl.Tensor[SHAPE, pl.FP32]):
    return a

if __name__ == "__main__":
    pytest.main([__file__])
`;

describe('module scanning', () => {
  it('finds programs at any indentation and skips everything else', () => {
    const m = parseModule(PYTEST_MODULE, 'test_mod.py');
    expect(m.programs.map((p) => p.name)).toEqual(['Built', 'Top']);
    const built = m.programs[0]!.functions[0]!;
    expect(st(built.body)).toEqual(['op:tile.store(t, [0, 0], t)']);
    // `n` is a builder parameter: it stays symbolic.
    const shape = (built.params[0]!.type as { shape: Expr[] }).shape;
    expect(shape.map((e) => evalConst(e, m.constants))).toEqual([1, undefined]);
  });

  it('reads module constants; later assignments override, non-constants are ignored', () => {
    const m = parseModule(PYTEST_MODULE, 'test_mod.py');
    expect(Object.fromEntries(m.constants)).toEqual({ N: 8, SHAPE: [4, 8], N2: 3 });
    const top = m.programs[1]!.functions[0]!;
    expect(top.params[0]!.type).toMatchObject({ kind: 'TensorType', shapeExpr: { kind: 'Name', id: 'SHAPE' } });
  });

  it('-D defines and overrides constants, and constants computed from them follow', () => {
    const defines = parseDefines(['N=16', '-D EXTRA=[1, 2]', 'M = 3 * 2']);
    expect(Object.fromEntries(defines)).toEqual({ N: 16, EXTRA: [1, 2], M: 6 });
    const m = parseModule(PYTEST_MODULE, 'test_mod.py', { defines });
    expect(Object.fromEntries(m.constants)).toEqual({ N: 16, EXTRA: [1, 2], M: 6, SHAPE: [16, 32], N2: 15 });
  });

  it('rejects a bad -D with a bad-define diagnostic', () => {
    for (const bad of ['N', '=3', 'N=', 'N=abc', 'N=1.5', 'N=[1, x]', '1N=2']) {
      const d = diagOf(() => parseDefines([bad]));
      expect(d.code).toBe('bad-define');
      expect(d.location).toBeUndefined();
    }
  });

  it('a module without programs parses to no programs', () => {
    expect(parseModule('x = 1\ndef f():\n    return lambda: 0\n', 'x.py').programs).toEqual([]);
    expect(parseModule('', 'empty.py').programs).toEqual([]);
  });

  it('reports an unreadable file with its path and no location', () => {
    const d = diagOf(() => readModule('/nonexistent/dir/file.py'));
    expect(d.code).toBe('unreadable-file');
    expect(d.path).toBe('/nonexistent/dir/file.py');
    expect(d.location).toBeUndefined();
    expect(diagOf(() => readModule('/tmp')).code).toBe('unreadable-file');
  });
});

const BODY = [
  'x = pl.load(t, [0, 0],',
  '            [1, 1])',
  'if x:  # c',
  '',
  '    # only a comment',
  '    y = 1',
  'else:',
  '    y = 2',
  'for i in pl.range(4):',
  '    z = """doc',
  '  with lines',
  '"""',
  '    w = "# not a comment"',
  'return y',
];

function program(indentUnit: string, extra = ''): string {
  const ind = (n: number, l: string): string => (l === '' ? '' : indentUnit.repeat(n) + l);
  return [
    'import pypto.language as pl',
    '@pl.program',
    'class P:',
    ind(1, '"""Docstring."""'),
    ind(1, '@pl.function(type=pl.FunctionType.InCore)'),
    ind(1, 'def f(self,'),
    ind(1, '      t: pl.Tensor[[1, 1], pl.FP32],'),
    ind(1, '      ):'),
    ind(2, '"""Function docstring,'),
    '   on two lines."""',
    ...BODY.map((l) =>
      /^( *)/.exec(l)![1]!.length >= 4 && l.trim() !== '"""' && !l.startsWith('  with')
        ? ind(2, indentUnit.repeat(1) + l.trim())
        : l === ''
          ? ''
          : l.startsWith('  with') || l === '"""'
            ? l
            : ind(2, l),
    ),
    extra,
  ].join('\n');
}

describe('layout', () => {
  const expected = [
    'x = op:tile.load(t, [0, 0], [1, 1])',
    'if x:',
    '  y = 1',
    'else:',
    '  y = 2',
    'for[range] i args=[0, 4, 1]:',
    '  z = "doc\\n  with lines\\n"',
    '  w = "# not a comment"',
    'return y',
  ];

  it.each([
    ['2 spaces', '  '],
    ['4 spaces', '    '],
    ['8 spaces', '        '],
  ])('any consistent indentation: %s', (_n, unit) => {
    const m = parseModule(program(unit), 'l.py');
    expect(st(m.programs[0]!.functions[0]!.body)).toEqual(expected);
  });

  it('single-statement bodies on the header line', () => {
    const m = parseModule(
      'import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n    def f(self): return 1\n    @pl.function\n    def g(self):\n        if c: x = 1\n        elif d: x = 2\n        else: x = 3\n        for i in pl.range(4): pl.system.fence()\n        while c: pass\n        with pl.scope(): pass\n',
      's.py',
    );
    const [f, g] = m.programs[0]!.functions;
    expect(st(f!.body)).toEqual(['return 1']);
    expect(st(g!.body)).toEqual([
      'if c:',
      '  x = 1',
      'elif d:',
      '  x = 2',
      'else:',
      '  x = 3',
      'for[range] i args=[0, 4, 1]:',
      '  op:system.fence()',
      'while c:',
      '  pass',
      'with[auto]():',
      '  pass',
    ]);
  });
});

describe('chunked parsing', () => {
  function bigProgram(n: number, nested: boolean): string {
    const lines = [
      'import pypto.language as pl',
      'import pypto.language.distributed as pld',
      '@pl.program',
      'class Big:',
      '    @pl.function(type=pl.FunctionType.InCore)',
      '    def k(self, t: pl.Tensor[[1, 8], pl.FP32], s: pld.DistributedTensor[[1, 1], pl.INT32]):',
    ];
    let ind = '        ';
    if (nested) {
      lines.push(`${ind}for i in pl.range(4):`);
      ind += '    ';
      lines.push(`${ind}if i == 0:`, `${ind}    pass`, `${ind}elif i == 1:`);
      ind += '    ';
    }
    for (let i = 0; i < n; i++) {
      if (i % 4 === 0) lines.push(`${ind}x${i} = pl.load(t, [0, ${i}], [1, 1])  # c`);
      else if (i % 4 === 1) lines.push(`${ind}pld.system.notify(target=s, peer=${i}, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)`);
      else if (i % 4 === 2) lines.push(`${ind}if x${i - 2}:`, `${ind}    pl.system.fence()`, `${ind}else:`, `${ind}    pass`);
      else lines.push(`${ind}with pl.at(level=pl.Level.CORE_GROUP):`, `${ind}    pl.store(x${i - 3}, [0, 0], t)`);
    }
    if (nested) lines.push('            else:', '                pass');
    lines.push('        return t', '');
    return lines.join('\n');
  }

  const parseWith = (chars: number, src: string): Module => parseModule(src, 'big.py', { blocks: { chunkChars: chars } });

  it.each([false, true])('small chunks give the same IR and spans as one chunk (nested=%s)', (nested) => {
    const src = bigProgram(300, nested);
    const whole = parseWith(10_000_000, src);
    const small = parseWith(500, src);
    expect(JSON.stringify(small.programs)).toBe(JSON.stringify(whole.programs));
    expect(strip(small.programs)).toEqual(strip(whole.programs));
    const last = whole.programs[0]!.functions[0]!.body.at(-1) as Stmt;
    expect(src.slice(last.start, last.end)).toBe('return t');
  });

  it('the chunk size is an option of each parse: smaller chunks, more parses, the next default parse unchanged', () => {
    const src = bigProgram(300, false);
    const parses = (chars?: number): number => {
      const spy = vi.spyOn(
        BlockParser.prototype as unknown as { matchRanges(r: number[], b: number, rule: string): unknown },
        'matchRanges',
      );
      try {
        parseModule(src, 'big.py', chars === undefined ? {} : { blocks: { chunkChars: chars } });
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    const before = parses();
    expect(parses(500)).toBeGreaterThan(before);
    expect(parses()).toBe(before);
  });

  it('a syntax error inside a split compound statement is still located', () => {
    const src = bigProgram(200, true).replace('peer=101,', 'peer=101,,');
    const d = diagOf(() => parseWith(500, src));
    expect(d.code).toBe('syntax-error');
    expect(src.slice(d.location!.start, d.location!.start + 1)).toBe(',');
    expect(src.slice(d.location!.start - 9, d.location!.start)).toBe('peer=101,');
  });
});

describe('statement-group cache', () => {
  const src = [
    'import pypto.language as pl',
    '@pl.program',
    'class P:',
    '    @pl.function',
    '    def f(self, t: pl.Tensor[[1, 1], pl.FP32]):',
    ...Array.from({ length: 6 }, (_, i) => [
      '        pl.store(t, [0, 0], t)  # same line',
      '        if t:',
      `            x = pl.submit(self.f, t, deps=[t])${i % 2 ? '   # other comment' : ''}`,
      '        a = 1; b = 2',
    ]).flat(),
    '',
  ].join('\n');

  it('repeated groups get their own nodes with their own spans, equal to an uncached parse', () => {
    const cached = parseModule(src, 'c.py');
    const plain = parseModule(src, 'c.py', { blocks: { groupCache: false } });
    expect(JSON.stringify(cached.programs)).toBe(JSON.stringify(plain.programs));
    const body = cached.programs[0]!.functions[0]!.body;
    expect(body.length).toBe(24);
    const starts = new Set(body.map((s) => s.start));
    expect(starts.size).toBe(24);
    for (const s of body)
      expect(src.slice(s.start, s.end)).toMatch(
        /^(pl\.store\(t, \[0, 0\], t\)|if t:\n {12}x = pl\.submit\(self\.f, t, deps=\[t\]\)|a = 1|b = 2)$/,
      );
    const ifs = body.filter((s) => s.kind === 'If') as Extract<Stmt, { kind: 'If' }>[];
    expect(ifs[0]!.then[0]).not.toBe(ifs[1]!.then[0]);
    const sub = (ifs[3]!.then[0] as Extract<Stmt, { kind: 'Assign' }>).value as Extract<Expr, { kind: 'Submit' }>;
    expect(src.slice(sub.depsStart, sub.depsEnd)).toBe('[t]');
  });

  it('is an option of each parse: off, every repeated statement is parsed; the next parse without it caches again', () => {
    const parses = (groupCache?: boolean): number => {
      const spy = vi.spyOn(StmtParser.prototype as unknown as { guardedStmt(out: unknown[]): void }, 'guardedStmt');
      try {
        // (Small chunks: a group's IR is cached once its chunk is parsed.)
        parseModule(src, 'c.py', { blocks: groupCache === undefined ? { chunkChars: 50 } : { chunkChars: 50, groupCache } });
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    const cached = parses();
    expect(parses(false)).toBeGreaterThan(cached);
    expect(parses()).toBe(cached);
    expect(parses(true)).toBe(cached);
  });
});

/** The generic deep copy the cache used before `shiftStmts` (the reference: same keys, same order, spans moved). */
function genericShift<T>(x: T, delta: number): T {
  if (Array.isArray(x)) return x.map((v) => genericShift(v, delta)) as T;
  if (x !== null && typeof x === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
      // A node's own span (`start` / `end`), and a deps list's (`depsStart` / `depsEnd`, -1 when absent).
      if ((k === 'start' || k === 'end') && typeof v === 'number') o[k] = v + delta;
      else if ((k === 'depsStart' || k === 'depsEnd') && typeof v === 'number') o[k] = v < 0 ? v : v + delta;
      else o[k] = genericShift(v, delta);
    }
    return o as T;
  }
  return x;
}

describe('shiftStmts (the statement-group cache copy)', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.py') ? [join(dir, d.name)] : [],
    );
  const root = fileURLToPath(new URL('../..', import.meta.url));
  it('copies every statement of the specs and examples as a generic deep copy does (keys, order, spans moved), sharing no node', () => {
    let stmts = 0;
    for (const f of [...files(join(root, 'specs')), ...files(join(root, 'examples'))]) {
      const m = parseModuleIsolated(readFileSync(f, 'utf8'), f);
      for (const p of m.programs) {
        for (const fn of p.functions) {
          const copy = shiftStmts(fn.body, 17);
          expect(JSON.stringify(copy), f).toBe(JSON.stringify(genericShift(fn.body, 17)));
          if (fn.body.length > 0) expect(copy[0]).not.toBe(fn.body[0]);
          stmts += fn.body.length;
        }
      }
    }
    expect(stmts).toBeGreaterThan(500);
  });
});

describe('JIT kernels nested in a function or class', () => {
  const text = readFileSync(new URL('../../specs/frontend/jit_nested.py', import.meta.url), 'utf8');

  it('are read: with the module kernels when their block binds no constant they use, else one program with its constants', () => {
    const m = parseModule(text, 'jit_nested.py');
    expect(m.programs.map((p) => [p.name, p.jit, p.functions.map((f) => f.name), p.constants?.get('ROWS')])).toEqual([
      ['jit', true, ['kernel'], undefined],
      ['jit', true, ['inner', 'outer'], 4],
    ]);
    // `inner(x, out)` inside `outer` is a call of a kernel (resolved like self.inner).
    const call = m.programs[1]!.functions[1]!.body[0]!;
    expect(call.kind === 'ExprStmt' && call.value.kind === 'Call' && call.value.callee.kind).toBe('self');
  });

  it('print so that parse(fmt(x)) is the same IR and fmt is idempotent', () => {
    const m = parseModule(text, 'jit_nested.py');
    const once = printModule(m);
    const again = parseModule(once, 'once.py');
    expect(structurallyEqual(again.programs, m.programs)).toBe(true);
    expect(printModule(again)).toBe(once);
  });
});

describe('inexact-number notes', () => {
  const kernel = (lit: string): string =>
    [
      'import pypto.language as pl',
      '@pl.program',
      'class P:',
      '    @pl.function(type=pl.FunctionType.InCore)',
      '    def f(self, t: pl.Tensor[[1, 1], pl.FP32]):',
      `        for i in pl.range(${lit}):`,
      '            pass',
      '',
    ].join('\n');
  const notes = (text: string): string[] =>
    (parseModule(text, 'n.py').problems ?? [])
      .filter((d) => d.code === 'inexact-number')
      .map((d) => text.slice(d.location!.start, d.location!.end));

  it('are given for the shortest spellings of 2^53 (the text check before the walk lets them through)', () => {
    expect(notes(kernel('9007199254740992'))).toEqual(['9007199254740992']);
    expect(notes(kernel('0x20000000000000'))).toEqual(['0x20000000000000']);
    expect(notes(kernel('0o400000000000000000'))).toEqual(['0o400000000000000000']);
  });

  it('are not given below it', () => {
    expect(notes(kernel('9007199254740991'))).toEqual([]);
    expect(notes(kernel('0x1fffffffffffff'))).toEqual([]);
  });

  it('are given for constant arithmetic beyond 2^53 written with short numbers (a product is enough)', () => {
    expect(notes(kernel('100000000 * 100000000'))).toEqual(['100000000 * 100000000']);
    expect(notes(`A = 100000000\n${kernel('A * A')}`)).toEqual(['A * A']);
    expect(notes(kernel('2**53'))).toEqual(['2**53']);
    expect(notes(kernel('2**52 + 2**52 - 1'))).toEqual(['2**52 + 2**52']);
    expect(notes(kernel('94906265 * 94906265'))).toEqual([]);
  });

  it('are given at a module constant whose value is beyond 2^53, not at its uses', () => {
    expect(notes(`N = 10**19\n${kernel('N')}`)).toEqual(['10**19']);
    expect(notes(`N = -9007199254740992\n${kernel('N')}`)).toEqual(['-9007199254740992']);
    expect(notes(`N = 2**52\n${kernel('N')}`)).toEqual([]);
  });
});
