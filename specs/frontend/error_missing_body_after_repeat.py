"""A `for` header with no body, followed by a statement the parser has read before (the first
kernel's loop): the error is at that statement, line 27, where Python reports it ("expected an
indented block after 'for' statement on line 26"), and worded as without the repeat, not at the
end of the header."""

import pypto.language as pl


@pl.program
class Twice:
    @pl.function(type=pl.FunctionType.InCore)
    def first(self, data: pl.InOut[pl.Tensor[[4, 64], pl.FP32]]):
        for step in pl.range(3):
            chunk = pl.load(data, [step, 0], [1, 64])
            pl.store(chunk, [step, 0], data)
        for step in pl.range(3):
            chunk = pl.load(data, [step, 0], [1, 64])
            pl.store(chunk, [step, 0], data)
        return data

    @pl.function(type=pl.FunctionType.InCore)
    def second(self, data: pl.InOut[pl.Tensor[[4, 64], pl.FP32]]):
        for step in pl.range(3):
            chunk = pl.load(data, [step, 0], [1, 64])
            pl.store(chunk, [step, 0], data)
        for step in pl.range(3):
        for step in pl.range(3):
            chunk = pl.load(data, [step, 0], [1, 64])
            pl.store(chunk, [step, 0], data)
        return data
