"""pl.set_cache_policy used as a value rather than as a statement of its own."""

import pypto.language as pl


@pl.program
class NotStandalone:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            r = pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        return out
