"""An import ptolog cannot follow is a warning, never silence."""

import pypto.language
from pypto.language import *


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8], pl.FP32]):
        pass
