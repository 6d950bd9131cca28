"""pl.submit (deps and kwargs), task-id arrays, task_dummy / task_invalid, self calls."""

import pypto.language as pl

N = 4


@pl.program
class Submits:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]) -> pl.Tensor[[N], pl.FP32]:
        return y

    @pl.function
    def helper(self, x: pl.Tensor[[N], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]) -> pl.Tensor[[N], pl.FP32]:
        tids = pl.array.create(N, pl.TASK_ID)
        none = pl.system.task_invalid()
        with pl.manual_scope():
            y, t0 = pl.submit(self.kernel, x, y)
            y, t1 = pl.submit(self.kernel, x, y, deps=[t0])
            y, t2 = pl.submit(self.kernel, x, y, deps=[t0, t1, none])
            y, t3 = pl.submit(self.kernel, x, y, deps=[])
            y, t4 = pl.submit(self.kernel, x, y, deps=(t0,))
            y, t5 = pl.submit(self.kernel, x, y, name_hint="k", deps=[t1], attrs={"a": 1})
            tids[0] = t5
            tids[N - 1] = t4
            first = pl.array.get_element(tids, 0)
            b = pl.system.task_dummy(deps=[tids])
            self.helper(x)
        return y
