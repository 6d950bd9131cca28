"""PyPTO parity (#10): PyPTO merges the leading pl.func_attr lines of a function and rejects a key
declared twice, or a pl.func_attr after another statement; ptolog reports each such line (the
function is left untouched), so `apply` is idempotent; the other functions are still rewritten."""

import pypto.language as pl


@pl.program
class Duplicates:
    @pl.function(type=pl.FunctionType.InCore)
    def twice(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"cache_policy": [(0, 1)]})
        pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def split_lines(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2})
        pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def late(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        t = pl.load(x, [0, 0], [64, 64])
        pl.func_attr({"cache_policy": [(0, 1)]})
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def fine(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def merged(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        # PyPTO merges leading lines with distinct keys: read, the second line kept as it is
        pl.func_attr({"cache_policy": [(0, 1)]})
        pl.func_attr({"split": 2})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
