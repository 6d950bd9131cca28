"""Short spellings print as qualified op names; unknown ops keep their spelling."""

import pypto.language as pl


@pl.program
class Spellings:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Out[pl.Tensor[[8, 8], pl.FP32]]):
        t1 = pl.load(a, [0, 0], [8, 8])
        t2 = pl.tile.load(a, [0, 0], [8, 8])
        pl.store(t1, [0, 0], b)
        pl.tile.store(t2, [0, 0], b)
        pl.write(b, [0, 0], 1.0)
        pl.tensor.write(b, [0, 0], 1.0)
        r1 = pl.read(a, [0, 0])
        r2 = pl.tensor.read(a, [0, 0])
        v1 = pl.view(a, [4, 4], [0, 0])
        v2 = pl.tensor.view(a, [4, 4], [0, 0])
        m1 = pl.matmul(a, a)
        m2 = pl.tensor.matmul(a, a)
        b = pl.assemble(b, v1, [0, 0])
        b = pl.tensor.assemble(b, v2, [4, 4])
        tr = pl.tile.read(t1, [0, 0])
        pl.tile.write(t1, [0, 0], tr)
        s = pl.add(t1, t2)
        e = pl.tile.exp(s)
        q = helper_fn(s)
