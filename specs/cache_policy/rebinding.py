"""Tracked by binding identity: after `b = self.prep(b)` inside the scope, reads of the new b are not covered."""

import pypto.language as pl


@pl.program
class Rebinding:
    @pl.function(type=pl.FunctionType.InCore)
    def prep(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        return x

    @pl.function
    def main(
        self,
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        b = self.prep(b)
        with pl.at(level=pl.Level.CORE_GROUP):
            first = pl.load(b, [0, 0], [32, 32])
            b = self.prep(b)
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            second = pl.load(b, [32, 0], [32, 32])
            pl.store(pl.add(first, second), [0, 0], out)
        return out
