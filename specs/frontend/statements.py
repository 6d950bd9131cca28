"""Every simple statement form."""

import pypto.language as pl


@pl.program
class Statements:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]):
        a = pl.load(x, [0, 0], [1, 4])
        b: pl.Tile[[1, 4], pl.FP32] = pl.add(a, a)
        pl.store(b, [0, 0], y)
        for i in pl.range(4):
            if i == 2:
                break
            if i == 1:
                continue
            pass
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
        tids = pl.array.create(2, pl.TASK_ID)
        y, tid = pl.submit(self.kernel, x, y)
        tids[0] = tid
        tids = pl.array.update_element(tids, 1, tid)
        other = pl.array.update_element(tids, 1, tid)
        (only,) = pl.submit(self.kernel, x, y, deps=[tids])
        self.kernel(x, y)
        return y
