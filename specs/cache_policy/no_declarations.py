"""A program without declarations is not changed by the pass (explicit cache= kwargs are kept as written)."""

import pypto.language as pl


@pl.program
class NoDecls:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(a, [0, 0], [64, 64])   # stays as written
            u = pl.load(a, [0, 0], [64, 64], cache=0)
            pl.store(pl.add(t, u), [0, 0], out)
        return out
