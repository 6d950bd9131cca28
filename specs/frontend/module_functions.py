"""Standalone module-level @pl.function kernels (PyPTO parses each on its own) are read too, without self."""

import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def kernel_init(oi: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
    """Zero the accumulator."""
    t = pl.full([16, 128], 0.0, dtype=pl.FP32)
    oi = pl.store(t, [0, 0], oi)
    return oi


@pl.function
def helper(x: pl.Tensor[[16, 128], pl.FP32]):
    pass
