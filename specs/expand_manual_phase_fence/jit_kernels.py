# explain-line: 17
"""JIT kernels: the @pl.jit entry is the Orchestration function; its manual scope is rewritten in place."""

import pypto.language as pl

N = 4


@pl.jit.incore
def k(x: pl.Tensor[[8, 8], pl.FP32]):
    pass


@pl.jit
def main(x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID], two: pl.Array[2, pl.TASK_ID]):
    with pl.manual_scope():
        for i in pl.range(3):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage", deps=[tids]):
                y = pl.add(x, x)
        for j in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="pair", deps=[two]):
                z = pl.add(x, x)
    return x
