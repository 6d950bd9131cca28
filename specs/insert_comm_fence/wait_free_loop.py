import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class WaitFreeLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, me: pl.Scalar[pl.INT32]):
        for i in pl.range(N):
            if i != me:
                pass
        while me > 0:
            pass
