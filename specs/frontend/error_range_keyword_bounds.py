"""pl.range takes its bounds positionally only (`def range(*args, init_values=None)`; PyPTO's parser:
"Unknown keyword argument 'stop'"). The error spells the call positionally; it is never read as
pl.range(0, 1, 3)."""

import pypto.language as pl

N = 8


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[N], pl.FP32]):
        for i in pl.range(1, stop=N, step=3):
            pass
