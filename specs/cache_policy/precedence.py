"""Precedence: a load's own cache= wins in both directions; else the declaration; else DEFAULT (integer spellings too)."""

import pypto.language as pl


@pl.program
class Precedence:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        c: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(c, 0)
            hot = pl.load(b, [0, 0], [32, 32], cache=pl.CachePolicy.DEFAULT)
            rest = pl.load(b, [32, 0], [32, 32])
            cold = pl.load(c, [0, 0], [32, 32], cache=1)
            warm = pl.load(c, [32, 0], [32, 32])
            plain = pl.load(a, [0, 0], [32, 32])
            own = pl.load(a, [32, 0], [32, 32], cache=0)
            s = pl.add(pl.add(hot, rest), pl.add(pl.add(cold, warm), pl.add(plain, own)))
            pl.store(s, [0, 0], out)
        return out
