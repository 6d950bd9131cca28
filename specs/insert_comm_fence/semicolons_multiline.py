"""`;` after a statement that spans several physical lines (brackets, a backslash, a triple-quoted string): the markers and the next statement go at the indentation of the statement's first line."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class SemiMultiline:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tensor[[4, 4], pl.FP32], win: pld.DistributedTensor[[4, 4], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32], p: pl.Scalar[pl.INT32]):
        pl.store(t, [0,
                     0], win); pld.system.notify(target=sig, peer=p, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        s = """a
b"""; pl.store(t, [0, 0], win)
        x = 1 + \
            2; pld.system.wait(signal=sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge); y = pl.load(win, [0, 0], [1, 4])
        if x: z = (1,
                   2); pl.store(t, [0, 0], win)
