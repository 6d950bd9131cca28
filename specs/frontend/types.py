"""Every type form: tensors, distributed tensors, tiles, scalars, task-id arrays, directions, tuple returns."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 8
SHAPE = [16, 64]


@pl.program
class Types:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        b: pl.Tensor[SHAPE, pl.FP16],
        w: pld.DistributedTensor[[1, N], pl.FP32, "window_buffer=w0"],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        o: pl.Out[pl.Tensor[[16, 64], pl.BF16]],
        io: pl.InOut[pl.Tensor[[N, N], pl.INT8]],
        i: pl.Scalar[pl.INT32],
        idx: pl.Scalar[pl.INDEX],
        flag: pl.Scalar[pl.BOOL],
        t: pl.Scalar[pl.TASK_ID],
        tids: pl.Array[4, pl.TASK_ID],
        more: pl.Array[N, pl.TASK_ID],
    ) -> tuple[pl.Tensor[[16, 64], pl.BF16], pl.Scalar[pl.TASK_ID]]:
        x: pl.Tile[[16, 64], pl.FP32] = pl.load(a, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [16, 64])
        z: pl.Tensor[[N - 1, N * 2], pl.FP32] = pl.load(a, [0, 0], [N - 1, N * 2])
        return o, t

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Scalar[pl.TASK_ID]:
        tids = pl.array.create(4, pl.TASK_ID)
        t: pl.Scalar[pl.TASK_ID] = pl.array.get_element(tids, 0)
        return t
