# explain-line: 18
import pypto.language as pl


@pl.program
class Declared:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            ta = pl.load(a, [0, 0], [32, 32])
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            hot = pl.load(b, [0, 0], [32, 32], cache=pl.CachePolicy.DEFAULT)
            rest = pl.load(b, [32, 0], [32, 32])
            pl.store(pl.add(ta, pl.add(hot, rest)), [0, 0], out)
        return out
