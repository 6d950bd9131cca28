# explain-line: 42
"""Two chained stages in a manual scope: every task of stage B depends on all of stage A.

With BRANCHES = 8, each of the 8 stage-B tasks depends on the whole 8-slot array:
64 edges. `ptolog apply --pass expand-manual-phase-fence` routes them through one
dummy-task barrier: 8 + 8 edges.
"""

import pypto.language as pl

BRANCHES = 8
ROWS = 256
COLS = 32


@pl.program
class TwoStage:
    @pl.function(type=pl.FunctionType.InCore)
    def stripe(
        self,
        data: pl.Tensor[[ROWS, COLS], pl.FP32],
        row: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        tile = pl.load(data, [row, 0], [32, COLS])
        ret = pl.store(tile, [row, 0], out)
        return ret

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        data: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.manual_scope():
            stage_a = pl.array.create(BRANCHES, pl.TASK_ID)
            for branch, (tids_iter,) in pl.range(BRANCHES, init_values=(stage_a,)):
                row: pl.Scalar[pl.INDEX] = branch * 32
                out, tid = pl.submit(self.stripe, data, row, out)
                tids_iter[branch] = tid
                stage_a_done = pl.yield_(tids_iter)
            for branch in pl.parallel(BRANCHES):
                row: pl.Scalar[pl.INDEX] = branch * 32
                out, tid_b = pl.submit(self.stripe, out, row, out, deps=[stage_a_done])
        return out
