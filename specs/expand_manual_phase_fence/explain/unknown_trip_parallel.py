# explain-line: 27
import pypto.language as pl

N = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        tids: pl.Array[N, pl.TASK_ID],
        other: pl.Array[4, pl.TASK_ID],
        two: pl.Array[2, pl.TASK_ID],
        three: pl.Array[3, pl.TASK_ID],
        sym: pl.Array[M, pl.TASK_ID],
        t: pl.Scalar[pl.TASK_ID],
        n: pl.Scalar[pl.INDEX],
        c: pl.Scalar[pl.BOOL],
    ):
        with pl.manual_scope():
            for i in pl.parallel(n):
                a, a_tid = pl.submit(self.k, x, deps=[tids])
                b, b_tid = pl.submit(self.k, x, deps=[tids])
