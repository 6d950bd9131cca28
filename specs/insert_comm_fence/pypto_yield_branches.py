"""PyPTO parity (#10): a store to `w`, yielded from two windows by an if/else, gets one region
cacheinvalid of `w` and one fence (not one cacheinvalid per root)."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class YieldBranches:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], win2: pld.DistributedTensor[[1, 8], pl.FP32], c: pl.Scalar[pl.INT32]):
        if c > 0:
            w = pl.yield_(win)
        else:
            w = pl.yield_(win2)
        pl.store(t, [0, 0], w)
