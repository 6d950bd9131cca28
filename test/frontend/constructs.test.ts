/** Every construct of dsl-syntax.md parses to the expected IR shape. */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { bodyOf, parseBody, st, ty } from './helpers.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const fixture = readFileSync(join(here, 'fixtures', 'constructs.py'), 'utf8');

describe('constructs.py', () => {
  const m = parseModule(fixture, 'constructs.py');
  const [kernel, main, helper] = m.programs[0]!.functions;

  it('reads module constants', () => {
    expect([...m.constants]).toEqual([
      ['N', 8],
      ['M', 16],
      ['SHAPE', [16, 64]],
    ]);
    expect(m.programs.map((p) => p.name)).toEqual(['Everything']);
  });

  it('reads function headers: kind, decorator keywords, params, directions, types, attrs', () => {
    expect(kernel!.name).toBe('kernel');
    expect(kernel!.funcKind).toBe('InCore');
    expect(kernel!.bareDecorator).toBe(false);
    expect(kernel!.decoratorKwargs.map((k) => k.name)).toEqual(['level']);
    expect(kernel!.params.map((p) => `${p.name}:${p.direction}:${ty(p.type)}`)).toEqual([
      'inp:in:Tensor[[1, N], <pl.DataType.FP32>]',
      'win:in:DTensor[[1, N], <pl.DataType.FP32>]',
      'sig:in:DTensor[[1, 1], <pl.DataType.INT32>]',
      'peer:in:Scalar[<pl.DataType.INT32>]',
      'io:inout:Tensor[SHAPE=[16, 64], <pl.DataType.FP16>]',
      'o:out:Tile[[16, 16], <pl.DataType.FP32>]',
    ]);
    expect(ty(kernel!.returns)).toBe('tuple[Tensor[[1, N], <pl.DataType.FP32>], Scalar[<pl.DataType.INDEX>]]');
    expect(kernel!.attrs.flatMap((d) => d.entries.map((e) => e.key.kind))).toEqual(['Str']);
    expect(main!.funcKind).toBe('Orchestration');
    expect(helper!.funcKind).toBe('Opaque');
    expect(helper!.bareDecorator).toBe(true);
    expect(helper!.params.map((p) => `${p.name}:${ty(p.type)}`)).toEqual(['a:Scalar[<pl.DataType.INT32>]', 'b:_']);
  });

  it('reads the statements of an InCore kernel', () => {
    expect(st(kernel!.body)).toEqual([
      'x = 1',
      'y: Scalar[<pl.DataType.INT32>] = ((x + (2 * (3 ** 2))) - (((- x) // 4) % 5))',
      '(a, a_tid) = self.helper(x, y)',
      '(b) = (a,)',
      'tids = op:array.create(4, <pl.DataType.TASK_ID>)',
      'tids = op:array.update_element(tids, 0, a_tid)',
      'op:tile.store(x, [0, 0], win)',
      'op:pld.tile.remote_store(x, win, peer, [0, 0])',
      'op:pld.system.notify(sig, peer, [0, 0], 1, <pld.NotifyOp.AtomicAdd>)',
      'op:pld.system.wait(sig, [0, 0], 1, <pld.WaitCmp.Ge>)',
      'op:system.cacheinvalid(win, [1, N], [0, 0])',
      'op:system.cacheinvalid()',
      'op:system.fence()',
      'if (((x == 1) and (not (y != 2))) or ((x < y) and (y <= 3))):',
      '  pass',
      'elif (x > 1):',
      '  z = op:yield_(x)',
      'elif (x >= 2):',
      '  z = op:yield_(y)',
      'else:',
      '  z = op:yield_(x)',
      'while (x < 10):',
      '  x = (x + 1)',
      '  if ((x & 1) | (2 ^ ((3 << 1) >> 1))):',
      '    break',
      '  continue',
      'for[while] _ (s) args=[] init=[x] cond=(s < 10):',
      '  s2 = op:yield_((s + 1))',
      'for[range] i args=[0, N, 1]:',
      '  pass',
      'for[range] i args=[1, N, 2]:',
      '  pass',
      'for[range] i args=[1, N, 1]:',
      '  pass',
      'for[parallel] p (t_iter) args=[0, 4, 1] init=[tids]:',
      '  t_out = op:yield_(t_iter)',
      'for[unroll] i args=[0, 4, 1]:',
      '  pass',
      'for[pipeline] i args=[0, 8, 1] stage=2:',
      '  pass',
      'for[range] i args=[0, 3, 1]:',
      '  pass',
      'for[spmd] i args=[4]:',
      '  pass',
      'if x:',
      '  x = 2',
      'for[range] i args=[0, 4, 1]:',
      '  op:system.fence()',
      'return (inp, peer)',
    ]);
  });

  it('reads scopes, submits and enum normalisation in an orchestration function', () => {
    expect(st(main!.body)).toEqual([
      'with[manual]():',
      '  t = submit kernel(1) deps=[]',
      'with[manual]():',
      '  pass',
      'with[auto]():',
      '  pass',
      'with[at](level=<pl.Level.CORE_GROUP>, name_hint="mm") deps=[t] as tid:',
      '  op:set_cache_policy(t, <pl.CachePolicy.BYPASS>)',
      '  op:set_cache_policy(t, policy=<pl.CachePolicy.BYPASS>)',
      'with[spmd](N):',
      '  pass',
      'with[cluster]():',
      '  pass',
      'b = op:system.task_dummy(deps=[t])',
      'op:system.task_invalid()',
      'v = op:tile.load(t, [0, 0], [1, 1], cache=<pl.CachePolicy.BYPASS>)',
      'w = [1, 2.5, True, False, None, "s", {"k": (1,)}, <pl.DataType.FP32>, x.shape, x[(0, 1)]]',
      'return t',
    ]);
  });
});

describe('op normalisation', () => {
  const one = (line: string): string => st(bodyOf(parseBody(line)))[0]!;

  it('keyword and positional forms of a known op are the same IR', () => {
    expect(one('pld.tile.remote_store(local, target=dst, peer=p, offsets=[0, 0])')).toBe(
      one('pld.tile.remote_store(local, dst, p, [0, 0])'),
    );
    expect(one('pl.store(t, [0, 0], win)')).toBe(one('pl.tile.store(tile=t, offsets=[0, 0], output_tensor=win)'));
    expect(one('pld.system.notify(target=s, peer=p, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)')).toBe(
      one('pld.system.notify(s, p, [0, 0], 1, op=0)'),
    );
  });

  it('keeps keywords after a gap, unknown ops, unknown enum ints and self calls as written', () => {
    expect(one('pl.tile.store(t, output_tensor=w)')).toBe('op:tile.store(t, output_tensor=w)');
    expect(one('pl.foo.bar(a, k=1)')).toBe('op?:pl.foo.bar(a, k=1)');
    expect(one('pld.system.notify(s, p, [0, 0], 1, op=7)')).toBe('op:pld.system.notify(s, p, [0, 0], 1, 7)');
    expect(one('self.helper(a, b=2)')).toBe('self.helper(a, b=2)');
    expect(one('print(a)')).toBe('print(a)');
  });

  it('never moves keywords of pl.set_cache_policy into positions', () => {
    expect(one('pl.set_cache_policy(t=b, policy=pl.CachePolicy.BYPASS)')).toBe('op:set_cache_policy(t=b, policy=<pl.CachePolicy.BYPASS>)');
    expect(one('pl.set_cache_policy(b.x, pl.CachePolicy.BYPASS, 3)')).toBe('op:set_cache_policy(b.x, <pl.CachePolicy.BYPASS>, 3)');
    expect(one('pl.set_cache_policy()')).toBe('op:set_cache_policy()');
  });

  it('reads enum literals', () => {
    expect(
      one(
        'x = [pl.FP32, pl.TASK_ID, pl.Level.CORE_GROUP, pl.MemorySpace.Vec, pl.FunctionType.InCore, pl.ScopeMode.MANUAL, pld.WaitCmp.Eq, pl.Foo.Bar]',
      ),
    ).toBe(
      'x = [<pl.DataType.FP32>, <pl.DataType.TASK_ID>, <pl.Level.CORE_GROUP>, <pl.MemorySpace.Vec>, <pl.FunctionType.InCore>, <pl.ScopeMode.MANUAL>, <pld.WaitCmp.Eq>, pl.Foo.Bar]',
    );
  });

  it('reads literals', () => {
    expect(one("x = [0x10, 0o7, 0b11, 1_000, 1.5, .5, 1e3, 'a' \"b\", r'\\n', '\\n\\t\\x41', True, None]")).toBe(
      'x = [16, 7, 3, 1000, 1.5, .5, 1e3, "ab", "\\\\n", "\\n\\tA", True, None]',
    );
  });

  it('reads statements on one line separated by semicolons', () => {
    expect(st(bodyOf(parseBody('a = 1; b = 2;')))).toEqual(['a = 1', 'b = 2']);
  });

  it('reads a body-less annotated tuple return and plain while', () => {
    expect(st(bodyOf(parseBody('while x:\n    x = x - 1\nreturn')))).toEqual(['while x:', '  x = (x - 1)', 'return _']);
  });
});

describe('shared examples', () => {
  // The repository's copies of the shared examples (examples/).
  const dir = fileURLToPath(new URL('../../examples', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.py'));
  it('are all there', () => expect(files.length).toBeGreaterThanOrEqual(4));
  it.each(files)('%s parses', (f) => {
    const m = parseModule(readFileSync(join(dir, f), 'utf8'), f);
    expect(m.programs.length).toBe(1);
    expect(m.programs[0]!.functions.length).toBeGreaterThan(0);
  });
});

describe('slice writes (PyPTO: `dst[<slices>] = src` is `dst = pl.assemble(dst, src, offsets)`)', () => {
  it('are the unified assemble op, resolved to tile.assemble or tensor.assemble by the rules (golden op_catalog/slice_write_kinds)', () => {
    const text = readFileSync(join(here, '..', '..', 'specs', 'frontend', 'slice_write_kinds.py'), 'utf8');
    const f = parseModule(text, 'slice_write_kinds.py').programs[0]!.functions[0]!;
    const ops = f.body.flatMap((s) =>
      s.kind === 'Assign' && s.sliceIndex && s.value.kind === 'Call' && s.value.callee.kind === 'op'
        ? [`${s.targets[0]!.id}:${s.value.callee.name}`]
        : [],
    );
    expect(ops).toEqual(['out:assemble', 't:assemble', 'u:assemble', 'v:assemble', 'w:assemble']);
  });
});
