import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class WaitThenPureLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, sig: pld.DistributedTensor[[1, N], pl.INT32], me: pl.Scalar[pl.INT32]):
        # a wait followed by a pure wait-loop is not a run: it keeps its own invalidate
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        for src in pl.range(N):
            pld.system.wait(sig, [0, src], 1, cmp=pld.WaitCmp.Ge)
