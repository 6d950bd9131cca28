# Wait, notify and barrier (notify + wait): a write before a barrier must be released; a read
# after a barrier is not stale (its own wait is invalidated in its lowering); a read after a
# wait is.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class WaitBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        win: pld.DistributedTensor[[16, 16], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        t = pl.load(src, [0, 0], [16, 16])
        pl.store(t, [0, 0], win)
        pld.tensor.barrier(sig)
        a = pl.read(win, [0, 0])
        pld.tensor.barrier(signal=sig)
        pld.system.wait(signal=sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        b = pl.tensor.read(win, [0, 0])
        pld.system.wait(sig, [0, 0], 2, cmp=pld.WaitCmp.Ge)
        u = pl.tile.load(tensor=win, offsets=[0, 0], shapes=[16, 16])
