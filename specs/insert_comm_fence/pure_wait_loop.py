import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class PureWaitLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, N], pl.INT32], me: pl.Scalar[pl.INT32]):
        for src in pl.range(N):
            if src != me:
                pld.system.wait(signal=sig, offsets=[0, src], expected=1, cmp=pld.WaitCmp.Ge)
        v = pl.read(win, [0, 0])
