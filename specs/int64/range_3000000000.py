import pypto.language as pl

N = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
        # Trip counts of 2^31 and more are read (3,000,000,000 and, with a step, 3,000,000,000).
        with pl.manual_scope():
            for i in pl.range(3000000000):
                a, a_tid = pl.submit(self.k, x, deps=[tids])
            for i in pl.range(0, 6000000000, 2):
                b, b_tid = pl.submit(self.k, x, deps=[tids])
