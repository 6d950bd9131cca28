"""Every statement with an error is reported, not only the first of the function (the reader
recovers at the statement: each statement of a block that does not read is reported, also
inside loop bodies); the function is left out, the next one is read."""
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def bad(self, x: pl.Tensor[[8], pl.FP32], out: pl.Out[pl.Tensor[[8], pl.FP32]]):
        a = x +
        b = lambda y: y
        for i in pl.range(4):
            c = pl.load(x, [0], [8])
            d = {1, 2}
        e = 1

    @pl.function(type=pl.FunctionType.InCore)
    def good(self, x: pl.Tensor[[8], pl.FP32], out: pl.Out[pl.Tensor[[8], pl.FP32]]):
        pl.store(pl.load(x, [0], [8]), [0], out)
