import pypto.language as pl

N = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
        # N = 4 slots, M = 2^30 consumers: N·M = 2^32 (0 in 32-bit arithmetic). PyPTO computes
        # in int64 and compresses; so does ptolog.
        with pl.manual_scope():
            for i in pl.range(1073741824):
                a, a_tid = pl.submit(self.k, x, deps=[tids])
