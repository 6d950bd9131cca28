import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class HandPlaced:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
        c: pl.Scalar[pl.BOOL],
    ):
        pl.store(t, [0, 0], win)
        if c:
            pl.system.cacheinvalid(win, [1, N], [0, 0])
            pl.system.fence()
        # on the else path the write reaches the notify unreleased
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        if c:
            pl.system.cacheinvalid()
        v = pl.read(win, [0, 0])
        pl.system.fence()
        pl.write(win, [0, 0], v)
        pl.system.fence()
        pl.system.cacheinvalid(win, [1, N], [0, 0])
