"""Repeating a declaration is redundant, not an error: the first one is kept (even when a repeat says BYPASS on a written tensor)."""

import pypto.language as pl


@pl.program
class Repeats:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(a, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(b, pl.CachePolicy.DEFAULT)
            ta = pl.load(a, [0, 0], [64, 64])
            pl.set_cache_policy(a, pl.CachePolicy.BYPASS)
            tb = pl.load(b, [0, 0], [64, 64])
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            ta2 = pl.load(a, [0, 0], [64, 64])
            pl.store(pl.add(ta, pl.add(tb, ta2)), [0, 0], b)
            pl.set_cache_policy(a, pl.CachePolicy.DEFAULT)
            pl.store(ta, [0, 0], out)
        return out
