import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class LoopControlReadsGM:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, flags: pl.Tensor[[1, N], pl.INT32], sig: pld.DistributedTensor[[1, N], pl.INT32]):
        # the condition reads GM: not a pure wait-loop, each wait keeps its invalidate
        while pl.read(flags, [0, 0]) > 0:
            pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        for i in pl.range(pl.read(flags, [0, 1])):
            pld.system.wait(sig, [0, 1], 1, cmp=pld.WaitCmp.Ge)
        for j in pl.range(N):
            if pl.read(flags, [0, j]) > 0:
                pld.system.wait(sig, [0, j], 1, cmp=pld.WaitCmp.Ge)
