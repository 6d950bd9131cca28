"""`pl.matmul` is PyPTO's unified op (tensor.matmul or tile.matmul by its operands' types): fmt keeps
each spelling as written, so a matmul on tiles never becomes pl.tensor.matmul. Keyword-only
parameters (`op=` of notify, `cmp=` of wait) print as keywords, as PyPTO requires."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Mm:
    @pl.function(type=pl.FunctionType.InCore)
    def tiles(self, a: pl.Tensor[[16, 16], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32]):
        ta = pl.load(a, [0, 0], [16, 16])
        c = pl.matmul(ta, ta)
        d = pl.tile.matmul(ta, c)
        e = pl.tensor.matmul(a, a)
        pld.system.notify(sig, 0, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal=sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
