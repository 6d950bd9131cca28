import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4], pl.FP32]):
        t = pl.load(x, [0], [4])
