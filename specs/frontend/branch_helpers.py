"""Two `@pl.jit.inline` helpers of one name in the branches of an `if`: Python binds the one of
the branch taken. Both are read (and judged); fmt refuses to hoist both to module level."""

import pypto.language as pl

FAST = True

if FAST:
    @pl.jit.inline
    def helper(x: pl.Tensor[[8], pl.FP32]):
        return x
else:
    @pl.jit.inline
    def helper(x: pl.Tensor[[8], pl.FP32]):
        y = pl.add(x, x)
        return y


@pl.jit.incore
def k(x: pl.Tensor[[8], pl.FP32]):
    x = helper(x)
    return x
