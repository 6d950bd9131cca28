"""Only a GM tensor read has a cache policy: scalars, loop variables, tiles and arrays are rejected."""

import pypto.language as pl


@pl.program
class NotATensor:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        tids: pl.Array[4, pl.TASK_ID],
        tile: pl.Tile[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        pre = pl.load(x, [0, 0], [16, 16])
        for i in pl.spmd(4):
            pl.set_cache_policy(i, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(n, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(tids, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(tile, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(pre, pl.CachePolicy.BYPASS)
            t = pl.load(x, [i * 16, 0], [16, 16])
            pl.store(pl.add(t, pre), [i * 16, 0], out)
        return out
