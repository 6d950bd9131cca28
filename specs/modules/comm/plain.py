"""Comm helpers without a `pl.at` scope: on their own they are in no kernel (nothing to insert);
inlined into an InCore kernel of another module they are that kernel's code, and the markers
they need then go into their body, here (see inline_kernels.py)."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.inline
def put_plain(x: pl.Tensor[[1, 64], pl.FP32], win: pld.DistributedTensor[[1, 64], pl.FP32], peer: pl.Scalar[pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 64])
    return x


@pl.jit.inline
def wait_plain(sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return sig


@pl.jit.inline
def notify_plain(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return sig


@pl.jit.inline
def store_plain(t: pl.Tile[[1, 64], pl.FP32], win: pl.Tensor[[1, 64], pl.FP32]):
    win = pl.store(t, [0, 0], win)
    return win
