import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class IterArgDestination:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
        for i, (w,) in pl.range(4, init_values=(win,)):
            w2 = pl.store(t, [0, i], w)
            w_out = pl.yield_(w2)
