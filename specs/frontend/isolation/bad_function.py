"""One function that cannot be read: it is reported and left untouched; its siblings and the other program are still audited and rewritten."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class First:
    @pl.function(type=pl.FunctionType.InCore)
    def good(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        pl.store(t, [0, 0], win)

    @pl.function(type=pl.FunctionType.InCore)
    def bad(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        pl.store(t, [0, 0], win)
        f = lambda v: v

    @pl.function(type=pl.FunctionType.InCore)
    def also_good(self, sig: pld.DistributedTensor[[1, 1], pl.INT32]):
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)


@pl.program
class Second:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        pl.store(t, [0, 0], win)
