# Copyright (c) the kernel's authors.
# A header before any code is kept at the top of fmt's output.
"""fmt keeps comments as PyPTO's printer does (leading comments): each comment prints above the
node it precedes or sits on (a statement, a compound statement's header, a function, a program),
at that node's indentation. Comments after a block's last statement go to the next statement;
those after a program's last statement are dropped (as PyPTO drops them). `pl.dynamic`
dimensions the programs use are kept."""

import pypto.language as pl
import pypto.language.distributed as pld

N = pl.dynamic("N")
UNUSED = pl.dynamic("UNUSED")
M = 8


# before the program
@pl.program  # on the decorator
class Commented:  # on the class line
    # before the first function
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tensor[[N, M], pl.FP32], win: pld.DistributedTensor[[N, M], pl.FP32]):  # on the def line
        """Docstring."""
        # before x
        x = pl.load(t, [0, 0], [1, M])  # after x, on its line
        # before the loop
        for i in pl.range(4):  # on the loop header
            # first in the loop
            pl.store(x, [i, 0], win)
            # after the loop's last statement: goes to the next statement
        if i > 1:
            y = pl.load(t, [
                0,  # inside brackets
                0], [1, M])
        # before elif
        elif i > 0:
            y = x
        # before else
        else:
            y = x
        return  # on the last statement
        # after the function's last statement: goes to the next function

    @pl.function(type=pl.FunctionType.InCore, external_source="k.cpp")
    def ext(self, t: pl.Tensor[[N, M], pl.FP32]):
        # an external kernel's comment
        ...
    # after the program's last statement, before other code: dropped


def helper():
    # Python outside programs: not read, its comments not kept
    return 1


# before a kernel
@pl.jit.incore
def kernel(t: pl.Tensor[[N, M], pl.FP32], out: pl.Out[pl.Tensor[[N, M], pl.FP32]]):
    # in a kernel
    pl.store(pl.load(t, [0, 0], [1, M]), [0, 0], out)
