"""A dispatch-shaped `with pl.spmd(N)` body (it only calls a pre-defined kernel): nothing to attach to."""

import pypto.language as pl


@pl.program
class Dispatch:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.spmd(4):
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            self.kernel(x, out)
        return out
