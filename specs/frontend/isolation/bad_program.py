"""A program whose class body cannot be read is reported; the next program and the JIT kernels are still read."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Broken:
    X = 1

    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        pl.store(t, [0, 0], win)


@pl.program
class Fine:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        pl.store(t, [0, 0], win)


@pl.jit.incore
def kernel(t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
    pl.remote_store(t, win, 1, [0, 0])
    pld.tile.remote_store(t, win, 1, [0, 0])


@pl.jit.opaque(level=pl.Level.AIC)
def bad_kernel(t: pl.Tile[[1, 8], pl.FP32]):
    pass
