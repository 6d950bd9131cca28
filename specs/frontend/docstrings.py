"""Docstrings as Python defines them: only a string literal that is the first statement of a
function body; fmt keeps it (PyPTO's parser skips it). A later string statement is an ordinary
expression statement, also when written on the docstring's line after a `;`."""

import pypto.language as pl


@pl.program
class Docs:
    @pl.function(type=pl.FunctionType.InCore)
    def semicolons(self, x: pl.Tensor[[4], pl.FP32]):
        "doc"; "second"; return

    @pl.function(type=pl.FunctionType.InCore)
    def only_a_docstring(self, x: pl.Tensor[[4], pl.FP32]):
        '''A body holding only its docstring
        spans two lines.'''

    @pl.function(type=pl.FunctionType.InCore)
    def with_attrs(self, x: pl.Tensor[[4], pl.FP32]):
        r"""Raw \n docstring."""
        pl.func_attr({"cache_policy": [(0, 1)]})
        t = pl.load(x, [0], [4])

    @pl.function(type=pl.FunctionType.InCore)
    def string_later(self, x: pl.Tensor[[4], pl.FP32]):
        t = pl.load(x, [0], [4])
        "not a docstring"
        if t:
            "nor this"
