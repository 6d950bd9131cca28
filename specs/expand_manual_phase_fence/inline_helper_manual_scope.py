"""A manual scope inside a @pl.jit.inline helper: PyPTO inlines it into the @pl.jit entry (an
Orchestration function) before ExpandManualPhaseFence runs, so its loops are rewritten in the
helper's body. The helper `unused` has no caller in the file: judged on its own, as it will be."""

import pypto.language as pl

N = 4


@pl.jit.inline
def stages(x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
    with pl.manual_scope():
        for i in pl.range(3):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage", deps=[tids]):
                y = pl.add(x, x)
    return x


@pl.jit.inline
def unused(x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
    with pl.manual_scope():
        for i in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="later", deps=[tids]):
                y = pl.add(x, x)
    return x


@pl.jit
def main(x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
    x = stages(x, tids)
    return x
