"""if / elif / else chains, `else: if` nesting (printed as elif), and pl.yield_ merges."""

import pypto.language as pl


@pl.program
class Branches:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, n: pl.Scalar[pl.INT32], x: pl.Tensor[[4], pl.FP32]):
        if n > 0:
            v = pl.yield_(1)
        else:
            v = pl.yield_(2)
        if n == 0:
            pl.system.fence()
        elif n == 1:
            pl.system.fence()
        elif n == 2:
            pass
        else:
            pl.system.fence()
        if n < 0:
            pass
        else:
            if n > 10:
                pass
            else:
                pl.system.fence()
        if n < 0:
            pass
        else:
            if n > 10:
                pass
            pl.system.fence()
        if not n:
            a, b = pl.yield_(1, 2)
