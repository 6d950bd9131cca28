"""Wrong arity or keyword form: exactly two positional arguments."""

import pypto.language as pl


@pl.program
class Arity:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        y: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(x)
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS, pl.CachePolicy.DEFAULT)
            pl.set_cache_policy(x, policy=pl.CachePolicy.BYPASS)
            pl.set_cache_policy(t=y, policy=pl.CachePolicy.BYPASS)
            pl.set_cache_policy()
            t = pl.load(x, [0, 0], [64, 64])
            u = pl.load(y, [0, 0], [64, 64])
            pl.store(pl.add(t, u), [0, 0], out)
        return out
