"""The outlined form (a pass dump between OutlineIncoreScopes and ConvertTensorToTileOps): the loads of the listed
parameters are stamped and the cache_policy entry is removed (the whole pl.func_attr when it was the only entry)."""

import pypto.language as pl


@pl.program
class Outlined:
    @pl.function(type=pl.FunctionType.InCore)
    def mm_incore(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ):
        pl.func_attr({"cache_policy": [(0, 0), (1, 1)], "split": 2})
        ta = pl.load(a, [0, 0], [64, 64])
        tb = pl.load(b, [0, 0], [64, 64])
        tb2 = pl.load(b, [0, 0], [64, 64], cache=pl.CachePolicy.DEFAULT)
        pl.store(pl.add(ta, pl.add(tb, tb2)), [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def only_policy(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"cache_policy": [(0, pl.CachePolicy.BYPASS)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def other_attrs(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
