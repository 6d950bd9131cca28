import pypto.language as pl


@pl.program
class Step:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]):
        out[0:16:2] = x
        return out
