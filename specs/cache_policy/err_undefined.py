"""Not defined where the scope starts: an unknown name, a tensor created inside the body, a name bound only later."""

import pypto.language as pl


@pl.program
class Undefined:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(nowhere, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(inner, pl.CachePolicy.BYPASS)
            inner: pl.Tensor[[64, 64], pl.FP32] = pl.matmul(x, x)
            t = pl.load(inner, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        with pl.at(level=pl.Level.HOST):
            pl.set_cache_policy(later, pl.CachePolicy.DEFAULT)
        later: pl.Tensor[[64, 64], pl.FP32] = pl.matmul(x, x)
        return out
