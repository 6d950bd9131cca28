"""A string continued by a backslash at the end of a line, in a file with CRLF newlines: Python reads one literal without the newline."""

import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tile[[1, 8], pl.FP32], out: pl.Tensor[[1, 8], pl.FP32]):
        x = "ab\
cd"; pl.store(t, [0, 0], out)
        y = 'e\
f'
