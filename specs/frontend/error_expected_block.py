"""A block opener with nothing indented after it: Python's IndentationError, reported at the line that should have been indented."""

import pypto.language as pl


def build():
    if True:
    x = 1


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[4], pl.FP32]):
        pass
