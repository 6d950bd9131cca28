"""PyPTO parity (#10): the result of a store into a window is that window (its type is the
window's), so a store into the result is a publishing write too — also through a `pl.while_`
carried window."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class StoreResult:
    @pl.function(type=pl.FunctionType.InCore)
    def twice(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        w2 = pl.store(t, [0, 0], win)
        pl.store(t, [0, 0], w2)

    @pl.function(type=pl.FunctionType.InCore)
    def carried(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], n: pl.Scalar[pl.INT32]):
        for (w,) in pl.while_(init_values=(win,)):
            pl.cond(n > 0)
            w3 = pl.store(t, [0, 0], w)
            pl.store(t, [0, 0], w3)
            w = pl.yield_(w3)
