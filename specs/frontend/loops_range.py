"""Range-like loops: pl.range in every argument form, Python range, parallel, unroll, pipeline."""

import pypto.language as pl

N = 16


@pl.program
class Loops:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[N], pl.FP32]):
        for i in pl.range(N):
            pass
        for i in pl.range(0, N):
            pass
        for i in pl.range(0, N, 1):
            pass
        for i in pl.range(2, N):
            pass
        for i in pl.range(0, N, 2):
            pass
        for i in pl.range(N - 1, -1, -1):
            pass
        for i in pl.range(1, N, 3):
            pass
        for i in range(N):
            pass
        for i in range(1, N):
            pass
        for i in pl.parallel(N):
            pass
        for i in pl.parallel(0, N, 4):
            pass
        for i in pl.unroll(4):
            pass
        for i in pl.pipeline(N, stage=2):
            pass
        for i in pl.range(N):
            for j in pl.parallel(i, N):
                pass
