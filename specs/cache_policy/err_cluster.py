"""A pl.cluster() body issues no GM read: nothing to attach to."""

import pypto.language as pl


@pl.program
class Cluster:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.cluster():
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [64, 64])
                pl.store(t, [0, 0], out)
        return out
