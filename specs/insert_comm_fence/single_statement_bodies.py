import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class SingleStatementBodies:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, N], pl.INT32], c: pl.Scalar[pl.BOOL]):
        if c: pl.store(t, [0, 0], win)
        for i in pl.range(N): pld.system.wait(sig, [0, i], 1, cmp=pld.WaitCmp.Ge)
        if c:
            pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        else: pl.store(t, [0, 0], win)  # trailing comment stays
