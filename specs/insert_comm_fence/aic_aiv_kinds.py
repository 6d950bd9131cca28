import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class CoreKinds:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
        pl.store(t, [0, 0], win)

    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, sig: pld.DistributedTensor[[1, 1], pl.INT32]):
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)

    @pl.function
    def opaque_kind(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
        pl.store(t, [0, 0], win)
