"""A deps= comprehension PyPTO cannot unroll at parse time: its iterable uses an IR variable (a
parameter), or is a DSL loop, or a filter uses an IR variable. Each is a located error."""
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8], pl.FP32], tids: pl.Array[4, pl.TASK_ID], m: pl.Scalar[pl.INDEX]):
        a, t = pl.submit(self.k, x, deps=[tids[i] for i in range(m)])

    @pl.function(type=pl.FunctionType.Orchestration)
    def dsl_loop(self, x: pl.Tensor[[8], pl.FP32], tids: pl.Array[4, pl.TASK_ID]):
        a, t = pl.submit(self.k, x, deps=[tids[i] for i in pl.range(4)])

    @pl.function(type=pl.FunctionType.Orchestration)
    def filtered(self, x: pl.Tensor[[8], pl.FP32], tids: pl.Array[4, pl.TASK_ID], m: pl.Scalar[pl.INDEX]):
        a, t = pl.submit(self.k, x, deps=[tids[i] for i in range(4) if i != m])
