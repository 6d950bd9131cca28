"""An import cycle Python refuses (cycle_refused.py → here → lib/cycle/late.py → here): this
module imports late first, and late's `from .early import early_notify` runs before
`early_notify` is defined: ImportError. ptolog says so at late's import."""

import pypto.language as pl
import pypto.language.distributed as pld

from .late import late_wait


@pl.jit.inline
def early_notify(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return sig


@pl.jit.inline
def early_push(x: pl.Tensor[[1, 64], pl.FP32], win: pld.DistributedTensor[[1, 64], pl.FP32],
               sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 64])
    sig = late_wait(sig, peer)
    return x
