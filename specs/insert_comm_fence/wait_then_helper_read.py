"""A wait, then a cached GM read inside an inline helper the kernel calls, with no whole-GM
cacheinvalid between: as written, that read may see stale peer data (as `wait_then_read` shows
for a read in the kernel itself), because InlineFunctions expands the helper at the call: the
read is reported in the helper, naming the wait."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.inline
def read_row(win: pld.DistributedTensor[[1, 8], pl.FP32]):
    t = pl.load(win, [0, 0], [1, 8])
    return t


@pl.program
class WaitThenHelperRead:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32], out: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        t = read_row(win)
        pl.store(t, [0, 0], out)
