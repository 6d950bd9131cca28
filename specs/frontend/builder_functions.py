"""Programs built inside builder functions (as PyPTO tests do); builder parameters stay symbolic."""

import pypto.language as pl

ROWS = 32


def build_copy(n: int, dtype=pl.FP32):
    @pl.program
    class Copy:
        @pl.function(type=pl.FunctionType.InCore)
        def copy(self, x: pl.Tensor[[ROWS, n], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, n], pl.FP32]]):
            t = pl.load(x, [0, 0], [ROWS, n])
            pl.store(t, [0, 0], y)

    return Copy


def build_pair():
    programs = []

    @pl.program
    class First:
        @pl.function
        def f(self):
            pass

    programs.append(First)

    @pl.program
    class Second:
        @pl.function
        def g(self):
            return

    programs.append(Second)
    return programs
