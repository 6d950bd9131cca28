"""Scope declarations of several kernels in one function: each applies to its own scope only; the warning is per kernel."""

import pypto.language as pl


@pl.program
class Kernels:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="first"):
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            t = pl.load(x, [0, 0], [64, 64])
            t2 = pl.load(x, [0, 0], [64, 64], cache=pl.CachePolicy.BYPASS)
            pl.store(pl.add(t, t2), [0, 0], out)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="second"):
            u = pl.load(x, [0, 0], [64, 64])
            pl.store(u, [0, 0], out)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="third"):
            v = pl.load(x, [0, 0], [64, 64], cache=1)
            v2 = pl.load(x, [0, 0], [64, 64], cache=1)
            pl.store(pl.add(v, v2), [0, 0], out)
        with pl.manual_scope():
            for i in pl.spmd(2):
                pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
                w = pl.load(x, [i * 32, 0], [32, 64])
                pl.store(w, [i * 32, 0], out)
        return out
