"""A cache-policy error stops the whole pipeline: nothing is rewritten, not even by the later passes."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Blocked:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        win: pld.DistributedTensor[[1, 64], pl.FP32],
    ):
        pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
        t = pl.load(x, [0, 0], [1, 64])
        pl.store(t, [0, 0], win)
