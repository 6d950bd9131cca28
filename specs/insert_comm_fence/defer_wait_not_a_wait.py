import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class DeferWait:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, sig: pld.DistributedTensor[[1, 1], pl.INT32]):
        pld.system.defer_wait(sig, [0, 0], 1)
        pld.system.notify(sig, 0, [0, 0], 1, op=0)
