# explain-line: 22
import pypto.language as pl


@pl.program
class Rebound:
    @pl.function(type=pl.FunctionType.InCore)
    def prep(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        return x

    @pl.function
    def main(
        self,
        b: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            pl.set_cache_policy(b, pl.CachePolicy.BYPASS)
            first = pl.load(b, [0, 0], [32, 32])
            b = self.prep(b)
            second = pl.load(b, [32, 0], [32, 32])
            third = pl.load(b, [32, 0], [32, 32])
            pl.store(pl.add(first, pl.add(second, third)), [0, 0], out)
        return out
