"""-D overrides module constants: the header prints the overridden values, shapes stay symbolic."""

import pypto.language as pl

N = 8
SHAPE = [16, 64]
M = N * 2


@pl.program
class Defined:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Tensor[SHAPE, pl.FP32], z: pl.Tensor[[M], pl.FP32]):
        pass
