"""Top level of a hierarchy pl.at (non-CORE_GROUP level): accepted syntactically, inert (no stamp, no warning)."""

import pypto.language as pl


@pl.program
class Hierarchy:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.HOST, name_hint="host"):
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
        with pl.at(level=pl.Level.CLUSTER):
            t2 = pl.load(x, [0, 0], [64, 64])
            pl.set_cache_policy(x, pl.CachePolicy.DEFAULT)
        return out
