"""`ptolog apply` with no --pass runs the three contracts in PyPTO's order: cache policy, ExpandManualPhaseFence,
InsertCommFence."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Pipeline:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        win: pld.DistributedTensor[[1, 64], pl.FP32],
    ):
        pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0, 0], [1, 64])
        pl.store(t, [0, 0], win)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        win: pld.DistributedTensor[[1, 64], pl.FP32],
        tids: pl.Array[4, pl.TASK_ID],
    ):
        with pl.manual_scope():
            for i in pl.range(4):
                a_tid = pl.submit(self.publish, x, win, deps=[tids])
