"""Loop-carried values: iter-args with init_values and pl.yield_, in every range-like loop."""

import pypto.language as pl

N = 4


@pl.program
class IterArgs:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N], pl.FP32]) -> pl.Tensor[[N], pl.FP32]:
        tids = pl.array.create(N, pl.TASK_ID)
        for i, (t_iter,) in pl.range(N, init_values=(tids,)):
            t_out = pl.yield_(t_iter)
        for p, (a, b) in pl.parallel(N, init_values=(x, 0)):
            a2, b2 = pl.yield_(a, b + 1)
        for u, (c,) in pl.unroll(2, 8, 2, init_values=[x]):
            c2 = pl.yield_(c)
        for s, (d,) in pl.pipeline(N, stage=2, init_values=(x,)):
            for k, (e,) in pl.range(s, init_values=(d,)):
                e2 = pl.yield_(e)
            d2 = pl.yield_(e2)
        return x
