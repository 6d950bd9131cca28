import pypto.language as pl

N = 4
BIG = 10**19
HALF = 2**52


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
        # A constant whose value passes 2^53 - 1 (BIG = 10**19, or HALF * N in the kernel) is not
        # read exactly: a note says so at the constant or the expression, and each loop's trip
        # count stays unknown. HALF * 1 is still exact and read.
        with pl.manual_scope():
            for i in pl.range(BIG):
                a, a_tid = pl.submit(self.k, x, deps=[tids])
            for i in pl.range(HALF * N):
                b, b_tid = pl.submit(self.k, x, deps=[tids])
            for i in pl.range(HALF * 1):
                c, c_tid = pl.submit(self.k, x, deps=[tids])
