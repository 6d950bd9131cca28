import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class NestedPureLoops:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, sig: pld.DistributedTensor[[N, N], pl.INT32], me: pl.Scalar[pl.INT32]):
        for a in pl.range(N):
            for b in pl.range(N):
                if a != me:
                    pld.system.wait(sig, [a, b], 1, cmp=pld.WaitCmp.Ge)
                else:
                    pass
