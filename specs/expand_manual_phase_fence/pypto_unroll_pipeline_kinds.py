# explain-line: 20
"""PyPTO parity (#10): ExpandManualPhaseFence treats only `pl.range` as sequential (ForKind::Sequential).
A `pl.unroll` / `pl.pipeline` loop is neither sequential nor parallel: no zero-trip skip (its
consumers are counted once when the trip count is not positive) and no merging of nested loops,
so a `pl.range` nested in one gets its barrier inside the outer loop, before the inner one.
(In the full Default pipeline UnrollLoops and LowerPipelineLoops run before this pass.)"""
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[4, pl.TASK_ID]):
        with pl.manual_scope():
            # zero trips, two consumers of tids[4]: 4·2 − (4 + 2) = 2, compressed
            for p in pl.unroll(0):
                a, a_tid = pl.submit(self.k, x, deps=[tids])
                b, b_tid = pl.submit(self.k, x, deps=[tids])
            # the inner range decides on its own: the barrier goes inside the unroll loop
            for i in pl.unroll(2):
                for j in pl.range(3):
                    c, c_tid = pl.submit(self.k, x, deps=[tids])
            # the same inside a pipeline loop
            for i in pl.pipeline(2, stage=2):
                for j in pl.range(3):
                    d, d_tid = pl.submit(self.k, x, deps=[tids])
