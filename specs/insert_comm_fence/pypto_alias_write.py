"""PyPTO parity (#10): `w = win` makes `w` a window-bound tensor (its type is the window's), so a
store to `w` is a publishing write and gets its markers, naming `w`."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class AliasWrite:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32], peer: pl.Scalar[pl.INT32]):
        w = win
        pl.store(t, [0, 0], w)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
