/**
 * An error finding stays local to its program (a JIT kernel: to that kernel): `apply` leaves that
 * program untouched by every pass and still rewrites the others, reporting the errors.
 */
import { describe, expect, it } from 'vitest';
import { applyPasses } from '../../src/passes/pipeline.js';
import { PASSES } from '../../src/passes/registry.js';
import { session } from '../session.js';

const PUBLISH = (name: string, extra: string): string => `
@pl.program
class ${name}:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        pl.store(t, [0, 0], win)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        ${extra}
`;

const HEAD = 'import pypto.language as pl\nimport pypto.language.distributed as pld\n';

describe('errors stay local', () => {
  it('a program with deps= on a plain call is left untouched; the next program gets its markers', () => {
    const text = HEAD + PUBLISH('Broken', 'self.k(t, win, deps=[])') + PUBLISH('Fine', 'self.k(t, win)');
    const r = applyPasses(text, 'p.py', PASSES, { session });
    expect(r.errors.map((d) => d.code)).toEqual(['deps-on-plain-call']);
    const [broken, fine] = r.text.split('class Fine:');
    expect(broken).toBe(text.split('class Fine:')[0]);
    expect(fine).toContain('pl.store(t, [0, 0], win)\n        pl.system.cacheinvalid(win, [1, 8], [0, 0])\n        pl.system.fence()');
  });

  it('among JIT kernels, only the kernel with the error is left untouched', () => {
    const text = `${HEAD}
@pl.jit.incore
def k(t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
    pl.store(t, [0, 0], win)


@pl.jit
def broken(t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
    k(t, win, deps=[])
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(t, [0, 0], win)
`;
    const r = applyPasses(text, 'j.py', PASSES, { session });
    expect(r.errors.map((d) => d.code)).toEqual(['deps-on-plain-call']);
    expect(r.text).toContain(
      'def k(t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):\n    pl.store(t, [0, 0], win)\n    pl.system.cacheinvalid(win, [1, 8], [0, 0])\n    pl.system.fence()\n',
    );
    expect(r.text).toContain('    with pl.at(level=pl.Level.CORE_GROUP):\n        pl.store(t, [0, 0], win)\n');
    expect(r.text.match(/pl\.system\.fence\(\)/g)).toHaveLength(1);
  });
});
