import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class Extended:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        # without rules/examples these two ops are registered ops with no effect;
        # with them, put_signal is a remote write and ttest a wait
        pld.tile.put_signal(t, win, peer, [0, 0])
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.ttest(sig, [0, 0], 1)
        v = pl.read(win, [0, 0])
