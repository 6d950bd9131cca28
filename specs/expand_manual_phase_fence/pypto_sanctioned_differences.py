# explain-line: 24
"""Deliberate differences from PyPTO's ExpandManualPhaseFence (#10; README "Deliberate differences
from PyPTO"): each loop below is left direct, where PyPTO's pass (at the fetched commit) compresses."""
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        tids: pl.Array[4, pl.TASK_ID],
        more: pl.Array[4, pl.TASK_ID],
        spm: pl.Array[4, pl.TASK_ID],
        n: pl.Scalar[pl.INDEX],
    ):
        with pl.manual_scope():
            # a bare pl.array.update_element statement updates tids (PyPTO checks only assignments)
            for i in pl.range(4):
                a, a_tid = pl.submit(self.k, x, deps=[tids])
                pl.array.update_element(tids, i, a_tid)
            # an update through a pl.while_ iter-arg alias of the array (PyPTO joins only for iter-args)
            for i in pl.range(4):
                b, b_tid = pl.submit(self.k, x, deps=[more])
                for (w,) in pl.while_(init_values=(more,)):
                    pl.cond(n > 0)
                    w2 = pl.array.update_element(w, 0, b_tid)
                    w = pl.yield_(w2)
            # a loop inside a pl.spmd body is no decision point: the body is an outlined kernel by then
            for r in pl.spmd(2):
                for j in pl.range(4):
                    c, c_tid = pl.submit(self.k, x, deps=[spm])
