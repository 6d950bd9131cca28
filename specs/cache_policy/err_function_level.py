"""In a function body outside any scope (and in a bare InCore function): no scope to attach to."""

import pypto.language as pl


@pl.program
class FunctionLevel:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        return out
