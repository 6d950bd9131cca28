"""Every JIT form PyPTO defines (python/pypto/jit/decorator.py), read as one program of the module."""

import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 16


@pl.jit.incore
def add_one(a: pl.Tensor[[ROWS, 64], pl.FP32], c: pl.Out[pl.Tensor[[ROWS, 64], pl.FP32]]):
    t = pl.load(a, [0, 0], [ROWS, 64])
    pl.store(pl.add(t, t), [0, 0], c)
    return c


@pl.jit.incore()
def with_parens(a: pl.Tensor[[ROWS, 64], pl.FP32]):
    pass


@pl.jit.incore(level=pl.Level.AIC)
def on_cube(a: pl.Tensor[[ROWS, 64], pl.FP32]):
    pass


@pl.jit.inline
def spliced(a: pl.Tensor[[ROWS, 64], pl.FP32], c: pl.Out[pl.Tensor[[ROWS, 64], pl.FP32]]):
    c = add_one(a, c)
    return c


@pl.jit.inline(auto_scope=False)
def spliced_manual(a: pl.Tensor[[ROWS, 64], pl.FP32]):
    pass


@pl.jit.opaque
def wrapper(a: pl.Tensor[[ROWS, 64], pl.FP32], c: pl.Out[pl.Tensor[[ROWS, 64], pl.FP32]]):
    for i in pl.parallel(2):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(a, [0, 0], [ROWS, 64])
    return c


@pl.jit.extern(source="k_aiv.cpp", core_type="aiv")
def ext_vec(a: pl.Tensor[[ROWS, 64], pl.FP32], c: pl.Out[pl.Tensor[[ROWS, 64], pl.FP32]]):
    """An external C++ kernel: its body is `...`."""
    ...


@pl.jit.extern(core_type="mixed", aic_source="k.cpp", aiv_source="k.cpp")
def ext_mixed(a: pl.Tensor[[ROWS, 64], pl.FP32]): ...


@pl.jit
def entry(a: pl.Tensor[[ROWS, 64], pl.FP32], c: pl.Out[pl.Tensor[[ROWS, 64], pl.FP32]]):
    c = spliced(a, c)
    ext_vec(a, c)
    return c


@pl.jit(auto_scope=False)
def entry_manual(a: pl.Tensor[[ROWS, 64], pl.FP32], c: pl.Out[pl.Tensor[[ROWS, 64], pl.FP32]]):
    with pl.scope():
        c = add_one(a, c)
    return c


@pl.jit.host
def host(x: pl.Tensor[[2, ROWS, 64], pl.FP32], y: pl.Out[pl.Tensor[[2, ROWS, 64], pl.FP32]]):
    buf = pld.alloc_window_buffer([ROWS, 64], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        win = pld.window(buf, [ROWS, 64], dtype=pl.FP32)
        entry(x[r], y[r], device=r)


def main():
    # plain Python around the kernels is skipped
    host.compile()
