"""`audit` judges a kernel as PyPTO's Default pipeline compiles it (the default) or as its text
stands (`--as-written`). The markers InsertCommFence inserts are notes by default and the
violations they repair are no errors; a contract violation no pass repairs (BYPASS on a tensor
the scope writes) is an error at both stages."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Exchange:
    @pl.function(type=pl.FunctionType.InCore)
    def exchange(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        win: pld.DistributedTensor[[1, 64], pl.FP32],
        sig: pld.DistributedTensor[[1, 4], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pl.load(x, [0, 0], [1, 64])
        pl.store(t, [0, 0], win)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        v = pl.load(win, [0, 0], [1, 64])
        pl.store(v, [0, 0], x)

    @pl.function
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="store"):
            pl.set_cache_policy(out, pl.CachePolicy.BYPASS)
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        return out
