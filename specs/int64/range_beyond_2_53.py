import pypto.language as pl

N = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
        # A trip count beyond 2^53 - 1 (10**19) is not read exactly by the frontend: a note says so at
        # the literal, and the loop's trip count stays unknown; 6e9 with a step is still read.
        with pl.manual_scope():
            for i in pl.range(10000000000000000000):
                a, a_tid = pl.submit(self.k, x, deps=[tids])
            for i in pl.range(0, 6000000000, 2):
                b, b_tid = pl.submit(self.k, x, deps=[tids])
