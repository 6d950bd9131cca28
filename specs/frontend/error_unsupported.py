import pypto.language as pl


@pl.program
class Unsupported:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4], pl.FP32]):
        try:
            pass
        except Exception:
            pass
