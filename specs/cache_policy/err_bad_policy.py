"""A policy that is no pl.CachePolicy value (ptolog's own check: PyPTO fails converting it)."""

import pypto.language as pl


@pl.program
class BadPolicy:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(x, 7)
            pl.set_cache_policy(x, out)
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        return out
