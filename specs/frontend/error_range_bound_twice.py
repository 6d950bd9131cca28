"""`pl.range(2, 8, 2, stop=9)`: stop is given positionally and as a keyword, a located error (never a
silently dropped stop=9)."""

import pypto.language as pl

N = 8


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[N], pl.FP32]):
        for i in pl.parallel(2, 8, 2, stop=9):
            pass
