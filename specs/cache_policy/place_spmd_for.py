"""Top level of a `for i in pl.spmd(N)` body: accepted; the declaration may come after the loads."""

import pypto.language as pl


@pl.program
class SpmdFor:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[256, 64], pl.FP32],
        w: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[256, 64], pl.FP32]],
    ) -> pl.Tensor[[256, 64], pl.FP32]:
        for i in pl.spmd(4):
            tx = pl.load(x, [i * 64, 0], [64, 64])
            tw = pl.load(w, [0, 0], [64, 64])
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            pl.store(pl.matmul(tx, tw), [i * 64, 0], out)
        return out
