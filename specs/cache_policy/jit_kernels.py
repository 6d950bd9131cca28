"""JIT kernels: a cache-policy declaration in a @pl.jit entry's CORE_GROUP scope stamps its loads."""

import pypto.language as pl


@pl.jit
def main(
    a: pl.Tensor[[64, 64], pl.FP32],
    b: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
        pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
        ta = pl.load(a, [0, 0], [32, 32])
        tb = pl.load(b, [0, 0], [32, 32])
        pl.store(pl.add(ta, tb), [0, 0], out)
    return out


@pl.jit.incore
def outlined(a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    pl.func_attr({"cache_policy": [(0, pl.CachePolicy.BYPASS)]})
    t = pl.load(a, [0, 0], [32, 32])
    pl.store(t, [0, 0], out)
    return out
