import pypto.language as pl


@pl.program
class Comp:
    @pl.function(type=pl.FunctionType.Orchestration)
    def f(self, x: pl.Tensor[[16], pl.FP32], tids: pl.Array[4, pl.TASK_ID]):
        a, t = pl.submit(self.f, x, deps=[tids[i] for i, j in range(4)])
