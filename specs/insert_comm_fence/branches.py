import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class Branches:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], c: pl.Scalar[pl.BOOL]):
        if c:
            pl.store(t, [0, 0], win)
        elif c == False:
            pl.write(win, [0, 0], 1.0)
        else:
            pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
