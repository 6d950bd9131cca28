"""JIT kernels defined inside a function or a test method are read (as PyPTO's decorator runs
them where they are defined): each enclosing block's kernels form one JIT program, with the
constants bound in that block; calls between them resolve."""
import pypto.language as pl

N = 8


def build():
    ROWS = 4

    @pl.jit.incore
    def inner(x: pl.Tensor[[ROWS, N], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]]):
        pl.store(pl.load(x, [0, 0], [ROWS, N]), [0, 0], out)

    @pl.jit
    def outer(x: pl.Tensor[[ROWS, N], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]]):
        inner(x, out)

    return outer


class TestKernels:
    def test_one(self):
        @pl.jit.incore
        def kernel(x: pl.Tensor[[2, N], pl.FP32], out: pl.Out[pl.Tensor[[2, N], pl.FP32]]):
            pl.store(pl.load(x, [0, 0], [2, N]), [0, 0], out)

        kernel(None, None)
