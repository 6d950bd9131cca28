"""Module constants: used ones are printed in the header (values after -D), shapes stay symbolic."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 8
M = N * 2
UNUSED = 3
SHAPE = [16, 64]
HALF = N // 2


@pl.program
class Consts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[1, N], pl.FP32],
        w: pld.DistributedTensor[[M, N - 1], pl.FP32],
        s: pl.Tensor[SHAPE, pl.FP32],
    ):
        for i in pl.range(N - 1):
            t = pl.load(a, [0, i], [1, HALF])
        x = SHAPE
