"""unknown-op notes only where the operand type is truly unknowable: negative literals, module
constants and arithmetic on them are scalars, an inline helper with an annotated return type types
its results, pl.tensor.gather returns tensors; `mystery` is unknown, so `v` gets one note and `w`,
which only inherits it, none."""
import pypto.language as pl
import pypto.language.distributed as pld

T = 16


@pl.jit.inline
def pair(x: pl.Tensor[[1, 16], pl.FP32]) -> tuple[pl.Tensor[[1, 16], pl.FP32], pl.Tensor[[1, 16], pl.FP32]]:
    return x, x


@pl.jit.inline
def one(x: pl.Tensor[[1, 16], pl.FP32]) -> pl.Tensor[[1, 16], pl.FP32]:
    return x


@pl.jit.incore
def k(x: pl.Tensor[[1, 16], pl.FP32], idx: pl.Tensor[[1, 16], pl.INT32], n: pl.Scalar[pl.INDEX]):
    a = pl.cast(-1, pl.INT64)
    b = pl.cast(T, pl.INDEX)
    c = pl.cast(T * 2 + n, pl.INDEX)
    d = pl.cast(-T, pl.INDEX)
    p, q = pair(x)
    r = pl.add(p, q)
    s = pl.add(one(x), x)
    g = pl.tensor.gather(x, 1, idx)
    h = pl.add(g, x)
    u = mystery(x)
    v = pl.add(u, x)
    w = pl.add(v, x)
    return x
