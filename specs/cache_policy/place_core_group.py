"""Top level of a CORE_GROUP pl.at body: accepted; every load of the declared binding is stamped."""

import pypto.language as pl


@pl.program
class CoreGroup:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            ta = pl.load(a, [0, 0], [32, 32])
            tb = pl.load(b, [0, 0], [32, 32])
            for i in pl.range(2):
                tc = pl.load(b, [32, 0], [32, 32])
            s = pl.add(ta, pl.load(b, [0, 32], [32, 32]))
            pl.store(s, [0, 0], out)
        return out
