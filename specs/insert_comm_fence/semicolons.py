"""Statements separated by `;` are separate statements: markers land between them, each on a line of its own at the indentation of the line's first statement (also in a body written on its header's line)."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Semi:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tensor[[4, 4], pl.FP32], win: pld.DistributedTensor[[4, 4], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32], v: pl.Scalar[pl.FP32], p: pl.Scalar[pl.INT32]):
        pl.write(win, [0, 1], v); pld.system.notify(target=sig, peer=p, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        x = 1; pl.store(t, [0, 0], win)
        if x: pl.store(t, [0, 0], win); y = 2; pld.system.wait(signal=sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge); z = 3
        pl.store(t, [0, 0], win);  # trailing
