"""Plain while loops and SSA while_ loops with pl.cond first in the body."""

import pypto.language as pl


@pl.program
class Whiles:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, n: pl.Scalar[pl.INT32]):
        i = 0
        while i < n:
            i = i + 1
        while True:
            break
        for (x,) in pl.while_(init_values=(0,)):
            pl.cond(x < n)
            x2 = pl.yield_(x + 1)
        for (a, b) in pl.while_(init_values=(0, n)):
            pl.cond(a < b and b > 0)
            pl.set_cache_policy(t, pl.CachePolicy.BYPASS)
            a2, b2 = pl.yield_(a + 1, b - 1)
        for (y,) in pl.while_(init_values=(1,)):
            pl.cond(y < 100)
