"""Nested in an if / for / while inside a scope: a conditionally-executed declaration is rejected."""

import pypto.language as pl


@pl.program
class Nested:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        c: pl.Scalar[pl.BOOL],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            if c:
                pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            else:
                pl.set_cache_policy(x, pl.CachePolicy.DEFAULT)
            for i in pl.range(4):
                pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
                t = pl.load(x, [0, 0], [64, 64])
            while c:
                pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            pl.store(t, [0, 0], out)
        return out
