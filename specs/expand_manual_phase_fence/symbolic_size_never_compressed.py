"""No symbolic-size note where no -D value could decide the loop: `acc` is updated in the first
loop (unsafe, never compressed) and `fresh` is defined in the second loop's body; only the third
loop, whose array is safe, waits on the symbolic sizes M and T."""
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], acc: pl.Array[M, pl.TASK_ID], safe: pl.Array[M, pl.TASK_ID]):
        with pl.manual_scope():
            for i in pl.parallel(T):
                a, a_tid = pl.submit(self.k, x, deps=[acc])
                acc[i] = a_tid
            for j in pl.parallel(T):
                fresh = pl.array.create(M, pl.TASK_ID)
                b, b_tid = pl.submit(self.k, x, deps=[fresh])
            for k in pl.parallel(T):
                c, c_tid = pl.submit(self.k, x, deps=[safe])
