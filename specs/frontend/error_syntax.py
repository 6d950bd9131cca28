import pypto.language as pl


@pl.program
class Broken:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4], pl.FP32]):
        y = pl.load(x, [0], [4]
        pl.store(y, [0], x)
        z = = 1
