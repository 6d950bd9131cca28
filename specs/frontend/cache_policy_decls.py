"""Cache-policy declarations print first in their scope; a scope of only declarations prints no pass."""

import pypto.language as pl


@pl.program
class Decls:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm"):
            c = pl.matmul(a, b)
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            out = pl.assemble(out, c, [0, 0])
            pl.set_cache_policy(a, pl.CachePolicy.DEFAULT)
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(a, pl.CachePolicy.BYPASS)
        with pl.spmd(4):
            x = pl.load(a, [0, 0], [16, 16])
            pl.set_cache_policy(a, 1)
        return out
