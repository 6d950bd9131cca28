import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class SatisfiedElsewhere:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        c: pl.Scalar[pl.BOOL],
    ):
        # release on both branches: the contract holds, although not where the pass puts it
        pl.store(t, [0, 0], win)
        if c:
            pl.system.cacheinvalid(win, [1, N], [0, 0])
            pl.system.fence()
        else:
            pl.system.cacheinvalid()
            pl.system.fence()
        pld.system.notify(sig, 0, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
