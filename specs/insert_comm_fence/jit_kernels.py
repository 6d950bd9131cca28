"""JIT kernels: module-level @pl.jit functions are one program; each kernel has the kind PyPTO gives it."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.jit.incore
def publish(t: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
    tile = pl.load(t, [0, 0], [1, N])
    pl.store(tile, [0, 0], win)


@pl.jit.incore(level=pl.Level.AIV)
def wait_then_read(sig: pld.DistributedTensor[[1, 1], pl.INT32], win: pld.DistributedTensor[[1, N], pl.FP32]):
    pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
    x = pl.load(win, [0, 0], [1, N])
    return x


@pl.jit.extern(source="k_aiv.cpp", core_type="aiv")
def external(win: pld.DistributedTensor[[1, N], pl.FP32]):
    ...


@pl.jit.incore
def calls_helpers(t: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
    # a call of another kernel of the module is an opaque write, like self.f(...)
    publish(t, win)
    external(win)


@pl.jit.inline
def inline_helper(t: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
    pl.store(pl.load(t, [0, 0], [1, N]), [0, 0], win)


@pl.jit
def entry(t: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
    # Orchestration: never touched
    publish(t, win)
    return win


@pl.jit.host
def host(t: pl.Tensor[[2, 1, N], pl.FP32]):
    buf = pld.alloc_window_buffer([1, N], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        win = pld.window(buf, [1, N], dtype=pl.FP32)
        entry(t[r], win, device=r)


def not_a_kernel(x):
    return x + 1
