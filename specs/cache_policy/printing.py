"""Position-normalising printing: declarations print first in their scope, in source order; a scope holding only
declarations prints them instead of `pass`; integer policies print symbolically."""

import pypto.language as pl


@pl.program
class Printing:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm"):
            c: pl.Tensor[[64, 64], pl.FP32] = pl.matmul(a, b)
            pl.set_cache_policy(b, 1)
            out = pl.assemble(out, c, [0, 0])
            pl.set_cache_policy(a, pl.CachePolicy.DEFAULT)
        for i in pl.spmd(2):
            t = pl.load(a, [0, 0], [32, 32])
            pl.store(t, [i * 32, 0], out)
            pl.set_cache_policy(a, pl.CachePolicy.BYPASS)
        return out
