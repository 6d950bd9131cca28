"""Constructs PyPTO's parser accepts in a @pl.program class: optional self, slices, split_aiv, `...` bodies,
deps= comprehensions, nested tuple targets, HOST SubWorkers."""

import pypto.language as pl

N = 4
HALF = 8


@pl.program
class Forms:
    @pl.function(type=pl.FunctionType.InCore)
    def no_self(x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        # PyPTO makes `self` optional (and its printer omits it)
        out[0:HALF, 0:64] = x[HALF:16, 0:64]
        out[HALF:, :] = x[:HALF]
        t = pl.load(x[0:HALF, :], [0, 0], [HALF, 64])
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def whole(self, f: pl.Out[pl.Tensor[[64], pl.FP32]], result: pl.Tensor[[64], pl.FP32]):
        f[:] = result
        f[i, 0:8] = result[0:8]
        return f

    @pl.function
    def split(self, x: pl.Tensor[[16, 64], pl.FP32]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            t = pl.load(x, [aiv_id * HALF, 0], [HALF, 64])

    @pl.function(type=pl.FunctionType.InCore, external_source="kernel.cpp")
    def external(self, x: pl.Tensor[[16, 64], pl.FP32]):
        """Implemented in C++."""
        ...

    @pl.function(type=pl.FunctionType.InCore)
    def inline_external(self, x: pl.Tensor[[16, 64], pl.FP32]): ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def abstract_worker(x: pl.Tensor[[64], pl.FP32]):
        ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def host_worker(x: pl.Tensor[[64], pl.FP32]):
        # plain Python, kept as written
        import torch

        assert x is not None, "x"
        try:
            y = torch.ones(64)
        except RuntimeError:
            raise
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], carry: pl.Array[N, pl.TASK_ID]):
        with pl.manual_scope():
            (a, b), tid = pl.submit(self.external, x)
            c, t2 = pl.submit(self.external, x, deps=[carry[i] for i in range(N)])
            d, t3 = pl.submit(self.external, x, deps=[tid, [carry[i] for i in range(N) if i > 0]])
        self.external(x)
        return x
