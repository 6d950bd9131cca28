# explain-line: 16
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
        pl.func_attr({"cache_policy": [(1, 1)]})
        ta = pl.load(a, [0, 0], [64, 64])
        tb = pl.load(b, [0, 0], [64, 64])
        pl.store(pl.add(ta, tb), [0, 0], out)
