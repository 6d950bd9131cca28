"""The first argument must be a bare variable name: attribute, subscript and call expressions name no binding."""

import pypto.language as pl


@pl.program
class NotAName:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(x.field, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(x[0], pl.CachePolicy.BYPASS)
            pl.set_cache_policy(self.view(x), pl.CachePolicy.BYPASS)
            pl.set_cache_policy(pl.view(x, [32, 32], [0, 0]), pl.CachePolicy.BYPASS)
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        return out
