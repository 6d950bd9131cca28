# A cross-core handoff through pl.system.syncall: the stores before it are released
# (whole-GM cacheinvalid + fence right before it), the loads after it invalidate first.
# explain-line: 17
import pypto.language as pl


@pl.program
class Handoff:
    @pl.function(type=pl.FunctionType.AIV)
    def stage(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [32, 32])
        pl.store(t, [0, 0], y)
        pl.system.syncall(core_type="aiv_only")
        u = pl.load(y, [32, 0], [32, 32])
        pl.store(u, [32, 32], y)
