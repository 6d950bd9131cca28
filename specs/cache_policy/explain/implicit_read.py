# explain-line: 18
"""Declaring a streaming read: the weight matrix b is read once, so it should not occupy cache."""

import pypto.language as pl


@pl.program
class StreamedMatmul:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[256, 128], pl.FP32],
        b: pl.Tensor[[128, 256], pl.FP32],
        out: pl.Out[pl.Tensor[[256, 256], pl.FP32]],
    ) -> pl.Tensor[[256, 256], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm"):
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            c: pl.Tensor[[256, 256], pl.FP32] = pl.matmul(a, b, out_dtype=pl.FP32)
            out = pl.assemble(out, c, [0, 0])
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def tiled(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ):
        hot = pl.load(x, [0, 0], [32, 32], cache=pl.CachePolicy.DEFAULT)
        cold = pl.load(x, [32, 0], [32, 32], cache=pl.CachePolicy.BYPASS)
        s = pl.add(hot, cold)
        pl.store(s, [0, 0], y)
