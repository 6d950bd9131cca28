import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class OtherArrangement:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win_a: pld.DistributedTensor[[1, N], pl.FP32],
        win_b: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        # satisfies the contract (each write is covered, then fenced, before the notify),
        # but not in the arrangement the pass recognises: apply adds its own markers,
        # audit reports missing-marker but no contract-violation
        pl.store(t, [0, 0], win_a)
        pl.store(t, [0, 0], win_b)
        pl.system.cacheinvalid()
        pl.system.fence()
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
