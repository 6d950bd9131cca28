import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class LocalStore:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win_a: pld.DistributedTensor[[1, N], pl.FP32],
        win_b: pld.DistributedTensor[[4, 64], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        pl.store(t, [0, 0], win_a)
        pl.tile.store(t, [0, 0], win_b)  # qualified spelling
        pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
