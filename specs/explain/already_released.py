# explain-line: 10
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):
        pl.store(t, [0, 0], win)
        pl.system.cacheinvalid(win, [1, 8], [0, 0])
        pl.system.fence()
