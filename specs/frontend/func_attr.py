"""pl.func_attr first in the body; decorator keywords; the Opaque decorator spellings."""

import pypto.language as pl


@pl.program
class Attrs:
    @pl.function(type=pl.FunctionType.InCore)
    def outlined(self, a: pl.Tensor[[4], pl.FP32], b: pl.Tensor[[4], pl.FP32]):
        pl.func_attr({"cache_policy": [(1, 1)]})
        t = pl.load(b, [0], [4])

    @pl.function(type=pl.FunctionType.InCore)
    def only_attrs(self, a: pl.Tensor[[4], pl.FP32]):
        """A docstring is kept by fmt."""
        pl.func_attr({"cache_policy": [(0, 1), (1, 0)], "other": "x"})

    @pl.function(type=pl.FunctionType.InCore, role=pl.Role.AIV, level=pl.Level.CORE_GROUP)
    def with_kwargs(self):
        pass

    @pl.function
    def bare(self):
        pass

    @pl.function()
    def empty_parens(self):
        pass

    @pl.function(type=pl.FunctionType.Opaque)
    def explicit_opaque(self):
        pass

    @pl.function(level=pl.Level.HOST, auto_scope=False, external_source="kern.cpp")
    def opaque_with_kwargs(self):
        pass
