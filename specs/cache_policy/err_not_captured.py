"""The body neither reads nor writes the declared tensor; a scope holding only a declaration captures nothing."""

import pypto.language as pl


@pl.program
class NotCaptured:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        unused: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(unused, pl.CachePolicy.BYPASS)
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        with pl.spmd(2):
            pl.set_cache_policy(x, pl.CachePolicy.DEFAULT)
        return out
