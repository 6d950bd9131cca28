"""BYPASS declared, but every read opts back into the cache: nothing is stamped and no load bypasses, so no warning."""

import pypto.language as pl


@pl.program
class AllExplicit:
    @pl.function
    def main(
        self,
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            t = pl.load(b, [0, 0], [64, 64], cache=pl.CachePolicy.DEFAULT)
            pl.store(t, [0, 0], out)
        return out
