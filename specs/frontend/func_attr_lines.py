"""Several pl.func_attr lines open a body: PyPTO merges them into one attribute map, and fmt
prints them as one line (as PyPTO's printer does); an external kernel's `...` may follow them."""

import pypto.language as pl


@pl.program
class AttrLines:
    @pl.function(type=pl.FunctionType.AIV, external_source="kern.cpp")
    def external(self, a: pl.Tensor[[4], pl.FP32]):
        pl.func_attr({"split": 2})
        pl.func_attr({"tag": "x"})
        ...

    @pl.function(type=pl.FunctionType.InCore)
    def with_docstring(self, a: pl.Tensor[[4], pl.FP32]):
        """The docstring comes first."""
        pl.func_attr({"cache_policy": [(0, pl.CachePolicy.BYPASS)]})
        pl.func_attr({"split": 2, "tag": "y"})
        t = pl.load(a, [0], [4])
