import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class WaitRead:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32]):
        pld.system.wait(signal=sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        v = pl.read(win, [0, 0])
