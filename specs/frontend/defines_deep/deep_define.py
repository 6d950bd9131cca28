"""-D values nest as deep as Python allows (200 brackets); 201 is a bad definition."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 2


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[N], pl.FP32]):
        pass
