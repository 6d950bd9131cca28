import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class ImpureWaitLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, win: pld.DistributedTensor[[N, 64], pl.FP32], sig: pld.DistributedTensor[[1, N], pl.INT32]):
        for step in pl.range(N - 1):
            pld.system.wait(signal=sig, offsets=[0, step], expected=1, cmp=pld.WaitCmp.Ge)
            incoming = pl.load(win, [step, 0], [1, 64])
