import pypto.language as pl


@pl.program
class OneLiners:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, n: pl.Scalar[pl.INT32]):
        if n > 0: pl.system.fence()
        else: pass
        for i in pl.range(n): a = i; b = a + 1
        while n > 0: n = n - 1
        with pl.scope(): pass

    @pl.function
    def short(self): return
