# explain-line: 17
import pypto.language as pl


@pl.program
class Repeat:
    @pl.function
    def main(
        self,
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(b, pl.CachePolicy.DEFAULT)
            t = pl.load(b, [0, 0], [32, 32])
            pl.store(t, [0, 0], out)
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
        return out
