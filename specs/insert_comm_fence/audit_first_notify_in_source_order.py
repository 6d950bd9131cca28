import pypto.language as pl
import pypto.language.distributed as pld

N = 8


# The contract audit names, for a write that reaches several notifies unreleased, the first of
# them in source order among those it reaches first (line 16, nested in the `if`, not line 17);
# the paths stop at a notify, so the notify at line 19 is not reached past line 17.
@pl.program
class FirstNotify:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pl.store(t, [0, 0], win)
        if peer != 0:
            pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
