"""Absolute imports of the project's helpers: through a package's re-export (`from comm import
ping`), a module alias (`import comm.ops as ops`, then `ops.wait_one(...)`), and a module found in
an extra import root (`from extlib import notify_ext`). Every call is inlined, none is an opaque write."""

import pypto.language as pl
import pypto.language.distributed as pld

import comm.ops as ops
from comm import ping
from extlib import notify_ext

N = 64


@pl.jit.incore
def push(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
         sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
    sig = ping(sig, peer)
    sig = notify_ext(sig, peer)
    sig = ops.wait_one(sig)
    return x
