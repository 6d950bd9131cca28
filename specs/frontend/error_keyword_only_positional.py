"""`op` of pld.system.notify is keyword-only (`def notify(target, peer, offsets, value, *, op)`): a fifth
positional argument is PyPTO's TypeError, a located error here."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, sig: pld.DistributedTensor[[1, 4], pl.INT32]):
        pld.system.notify(sig, 0, [0, 0], 1, pld.NotifyOp.AtomicAdd)
