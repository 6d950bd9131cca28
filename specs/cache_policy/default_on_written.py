"""DEFAULT on a tensor the scope writes is fine (only BYPASS is a coherency bug); its loads are stamped DEFAULT."""

import pypto.language as pl


@pl.program
class DefaultWritten:
    @pl.function
    def main(
        self,
        acc: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
        x: pl.Tensor[[64, 64], pl.FP32],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        for i in pl.spmd(4):
            pl.set_cache_policy(acc, pl.CachePolicy.DEFAULT)
            a = pl.load(acc, [0, 0], [64, 64])
            b = pl.load(x, [0, 0], [64, 64])
            pl.store(pl.add(a, b), [0, 0], acc)
        return acc
