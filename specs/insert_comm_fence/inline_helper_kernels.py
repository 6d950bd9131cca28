"""`pl.at` kernels inside `@pl.jit.inline` helpers. PyPTO's Default pipeline runs InlineFunctions
first and outlines the CORE_GROUP scopes after, so these bodies are InCore kernels by the time
InsertCommFence runs: the markers go into the helper, after each write and wait.
`store_then_notify` has no caller in this file (its callers are elsewhere): its kernel is judged
on its own, as the compiler will see it once inlined."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.jit.inline
def push(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
         sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="push"):
        pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
        pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="wait"):
        pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)
        v = pl.read(win, [0, 0])
    return x


@pl.inline
def store_then_notify(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
                      sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="store"):
        t = pl.load(x, [0, 0], [1, N])
        win = pl.store(t, [0, 0], win)
        pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return win


@pl.jit
def entry(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
          sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    push(x, win, sig, peer)
    return x
