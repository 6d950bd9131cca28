import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class SeparateLoops:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, N], pl.INT32]):
        for c in pl.range(N):
            pl.store(t, [0, c], win)
        for p in pl.range(N):
            pld.system.notify(sig, p, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        for q in pl.range(N):
            pld.system.notify(sig, q, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
            pl.store(t, [0, q], win)
