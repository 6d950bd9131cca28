"""PyPTO rejects a function attribute declared twice, in one pl.func_attr line or across the
lines it merges, a pl.func_attr line that is not one dict, and a decorator-only attribute
(auto_scope, external_source) in pl.func_attr: ptolog reports each (the function is left
untouched); the other functions are still rewritten."""

import pypto.language as pl


@pl.program
class LineErrors:
    @pl.function(type=pl.FunctionType.InCore)
    def across_lines(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2, "cache_policy": [(0, 1)]})
        pl.func_attr({"split": 3})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def in_one_line(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"cache_policy": [(0, 1)], "cache_policy": [(0, 0)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def not_a_dict(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"cache_policy": [(0, 1)]})
        pl.func_attr(split=2)
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def fine(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2})
        pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def decorator_only(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"auto_scope": False})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
