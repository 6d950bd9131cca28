import pypto.language as pl

N = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
        # The inner loop merges into the outer one: M = 65536 x 65536 = 2^32 (0 in 32 bits).
        # PyPTO puts the barrier before the outer loop; so does ptolog.
        with pl.manual_scope():
            for i in pl.range(65536):
                for j in pl.range(65536):
                    a, a_tid = pl.submit(self.k, x, deps=[tids])
