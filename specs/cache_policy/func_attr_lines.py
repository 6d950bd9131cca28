"""PyPTO merges every leading pl.func_attr line of a function into one attribute map: the
cache_policy entry is read on whichever line holds it; `apply` stamps the loads and removes the
entry (the line when it held nothing else); the other attributes are kept as written; `fmt`
prints the merged attributes on one line, as PyPTO's printer does."""

import pypto.language as pl


@pl.program
class Lines:
    @pl.function(type=pl.FunctionType.InCore)
    def second_line(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2})
        pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def shared_line(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2})
        pl.func_attr({"cache_policy": [(0, pl.CachePolicy.BYPASS)], "tag": "kept"})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def last_entry(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        """A docstring before the lines."""
        pl.func_attr({"split": 2})
        pl.func_attr({"tag": "kept", "cache_policy": [(0, 1)]})
        pl.func_attr({"other": 3})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def written_over_lines(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2})
        pl.func_attr(
            {"cache_policy": [(0, 1)]}  # the whole statement goes
        )
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def one_physical_line(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        pl.func_attr({"split": 2}); pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def no_policy(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        # attributes no contract reads: kept as written by apply
        pl.func_attr({"split": 2})
        pl.func_attr({"tag": "kept"})
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
