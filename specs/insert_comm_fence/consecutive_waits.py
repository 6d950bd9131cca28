import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class ConsecutiveWaits:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32]):
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.wait(sig, [0, 1], 1, cmp=pld.WaitCmp.Ge)
        pld.system.wait(sig, [0, 2], 1, cmp=3)
        v = pl.read(win, [0, 0])
        pld.system.wait(sig, [0, 3], 1, cmp=pld.WaitCmp.Ge)
