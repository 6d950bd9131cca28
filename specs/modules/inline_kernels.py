"""InCore kernels calling helpers of another module that have no `pl.at` scope (comm/plain.py):
PyPTO inlines them first, so their put and wait are this kernel's, and InsertCommFence puts the
fence after the put and the cacheinvalid after the wait inside the helper's body; a store into a
plain tensor parameter the caller binds to its window is a local publishing write there (the
region cacheinvalid names the shape the helper's parameter declares). The run on this
file judges the helpers so, reports the markers in comm/plain.py and `apply` inserts them there."""

import pypto.language as pl
import pypto.language.distributed as pld

from comm.plain import put_plain, wait_plain
from .comm import plain

N = 64


@pl.jit.incore
def produce(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
            sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    x = put_plain(x, win, peer)
    sig = plain.notify_plain(sig, peer)
    return x


@pl.jit.incore
def consume(win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    sig = wait_plain(sig)
    t = pl.load(win, [0, 0], [1, N])
    return t


@pl.jit.incore
def publish(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
    t = pl.load(x, [0, 0], [1, N])
    win = plain.store_plain(t, win)
    return x
