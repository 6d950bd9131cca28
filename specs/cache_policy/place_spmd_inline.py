"""Top level of an inline `with pl.spmd(N)` body: accepted, declarations anywhere in it."""

import pypto.language as pl


@pl.program
class SpmdInline:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        w: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.spmd(8):
            tx = pl.load(x, [0, 0], [64, 64])
            pl.set_cache_policy(w, 1)
            tw = pl.load(w, [0, 0], [64, 64])
            pl.store(pl.add(tx, tw), [0, 0], out)
            pl.set_cache_policy(x, pl.CachePolicy.DEFAULT)
        return out
