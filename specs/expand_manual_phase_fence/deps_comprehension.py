"""A deps= comprehension is the list PyPTO unrolls it to at parse time: with a known length it
counts as that many dependencies (`[tids for _ in range(1)]` is `[tids]`, a consumer; a
comprehension of N > 1 entries is not); with a length ptolog cannot evaluate it is never a consumer."""
import pypto.language as pl

N = 4
SLOTS = [0, 1]
K = len(SLOTS)


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
        other: pl.Array[N, pl.TASK_ID],
    ):
        # one entry: the same as deps=[tids], 4 x 4 edges compressed
        with pl.manual_scope():
            for i in pl.range(4):
                a, a_tid = pl.submit(self.k, x, deps=[tids for _ in range(1)])
        # N entries (the slots of the array): not a full-array consumer
        with pl.manual_scope():
            for i in pl.range(4):
                b, b_tid = pl.submit(self.k, x, deps=[other[j] for j in range(N)])
        # a length ptolog cannot evaluate (len() of a list): not known to be one dependency
        with pl.manual_scope():
            for i in pl.range(4):
                c, c_tid = pl.submit(self.k, x, deps=[other for _ in range(K)])
