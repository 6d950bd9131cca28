import pypto.language as pl


@pl.program
class Dots:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16], pl.FP32]):
        y = pl.add(x, x)
        ...
