/** Spans point at exactly the right text of the original module. */
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import type { Expr, Stmt } from '../../src/ir/nodes.js';
import { text } from './helpers.js';

const SRC = `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 4], pl.FP32],  # trailing comment
             y: pl.Out[pl.Tensor[[4, 4], pl.FP32]]):
        a = pl.load(x,   # interior comment
                    [0, 0],
                    [4, 4])  # after
        b, b_tid = pl.submit(self.k, a, deps=[t0, t1])
        if a:
            c = 1
        elif b:
            c = 2
        else:
            c = 3  # done
        # a comment line
        with pl.at(level=pl.Level.CORE_GROUP, deps=[ t2 ]):
            pl.system.fence()
        for i in pl.range(4):
            pass
        tids[i] = t
        d = x \\
            + 1
        return y
`;

describe('spans', () => {
  const m = parseModule(SRC, 'spans.py');
  const f = m.programs[0]!.functions[0]!;
  const body = f.body;
  const t = (s: { start: number; end: number }): string => text(m, s);

  it('simple statements cover their text exactly, without comments or newline', () => {
    expect(t(body[0]!)).toBe('a = pl.load(x,   # interior comment\n                    [0, 0],\n                    [4, 4])');
    expect(t(body[1]!)).toBe('b, b_tid = pl.submit(self.k, a, deps=[t0, t1])');
    expect(t(body[5]!)).toBe('tids[i] = t');
    expect(t(body[6]!)).toBe('d = x \\\n            + 1');
    expect(t(body[7]!)).toBe('return y');
  });

  it('call spans end after the closing parenthesis; deps spans are the list', () => {
    const a = body[0] as Extract<Stmt, { kind: 'Assign' }>;
    expect(t(a.value)).toBe('pl.load(x,   # interior comment\n                    [0, 0],\n                    [4, 4])');
    const sub = (body[1] as Extract<Stmt, { kind: 'Assign' }>).value as Extract<Expr, { kind: 'Submit' }>;
    expect(sub.kind).toBe('Submit');
    expect(text(m, { start: sub.depsStart, end: sub.depsEnd })).toBe('[t0, t1]');
    expect(sub.deps!.map((d) => t(d))).toEqual(['t0', 't1']);
    const scope = body[3] as Extract<Stmt, { kind: 'Scope' }>;
    expect(text(m, { start: scope.depsStart, end: scope.depsEnd })).toBe('[ t2 ]');
  });

  it('compound statements run from the header to the end of their last body statement', () => {
    const iff = body[2] as Extract<Stmt, { kind: 'If' }>;
    expect(t(iff)).toBe('if a:\n            c = 1\n        elif b:\n            c = 2\n        else:\n            c = 3');
    const elif = iff.orelse[0] as Extract<Stmt, { kind: 'If' }>;
    expect(elif.isElif).toBe(true);
    expect(t(elif)).toBe('elif b:\n            c = 2\n        else:\n            c = 3');
    expect(t(body[3]!)).toBe('with pl.at(level=pl.Level.CORE_GROUP, deps=[ t2 ]):\n            pl.system.fence()');
    expect(t(body[4]!)).toBe('for i in pl.range(4):\n            pass');
  });

  it('functions span from the decorator, programs from @pl.program, params name to type', () => {
    expect(t(f).startsWith('@pl.function(type=pl.FunctionType.Orchestration)')).toBe(true);
    expect(t(f).endsWith('return y')).toBe(true);
    expect(t(m.programs[0]!).startsWith('@pl.program\nclass P:')).toBe(true);
    expect(t(m.programs[0]!).endsWith('return y')).toBe(true);
    expect(f.params.map(t)).toEqual(['x: pl.Tensor[[4, 4], pl.FP32]', 'y: pl.Out[pl.Tensor[[4, 4], pl.FP32]]']);
    expect(t(f.params[1]!.type!)).toBe('pl.Tensor[[4, 4], pl.FP32]');
  });

  it('expressions and synthesised nodes', () => {
    const loop = body[4] as Extract<Stmt, { kind: 'For' }>;
    expect(loop.args.map((a) => [a.kind, t(a)])).toEqual([
      ['Int', ''],
      ['Int', '4'],
      ['Int', ''],
    ]);
    expect(loop.args[0]!.start).toBe(m.source.text.indexOf('pl.range(4)'));
    const el = body[5] as Extract<Stmt, { kind: 'Assign' }>;
    expect(t(el.targets[0]!)).toBe('tids');
    expect(t(el.value)).toBe('tids[i] = t');
    const d = body[6] as Extract<Stmt, { kind: 'Assign' }>;
    expect(t(d.value)).toBe('x \\\n            + 1');
    const kw = (body[3] as Extract<Stmt, { kind: 'Scope' }>).kwargs[0]!;
    expect(t(kw)).toBe('level=pl.Level.CORE_GROUP');
    expect(t(kw.value)).toBe('pl.Level.CORE_GROUP');
  });

  it('parenthesised operands are inside the enclosing expression span', () => {
    const m2 = parseModule(
      'import pypto.language as pl\n@pl.program\nclass Q:\n    @pl.function\n    def f(self):\n        x = (a + b) * c.d(1)[2]\n',
      'q.py',
    );
    const a = m2.programs[0]!.functions[0]!.body[0] as Extract<Stmt, { kind: 'Assign' }>;
    expect(text(m2, a.value)).toBe('(a + b) * c.d(1)[2]');
    const bin = a.value as Extract<Expr, { kind: 'Binary' }>;
    expect(text(m2, bin.left)).toBe('a + b');
    expect(text(m2, bin.right)).toBe('c.d(1)[2]');
  });

  it('maps spans through CRLF line endings and a BOM', () => {
    const src =
      '\uFEFFimport pypto.language as pl\r\n@pl.program\r\nclass R:\r\n    @pl.function\r\n    def f(self):\r\n        x = 1  # c\r\n        return x\r\n';
    const m3 = parseModule(src, 'r.py');
    const b = m3.programs[0]!.functions[0]!.body;
    expect(b.map((s) => text(m3, s))).toEqual(['x = 1', 'return x']);
  });
});
