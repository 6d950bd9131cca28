import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class AlreadyMarked:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, N], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        pl.store(t, [0, 0], win)
        pl.system.cacheinvalid(win, [1, N], [0, 0])
        pl.system.fence()
        pld.tile.remote_store(t, win, peer, [0, 0])
        pl.system.fence()
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pl.system.cacheinvalid()
        v = pl.read(win, [0, 0])
