"""A kernel calling a helper imported with a relative import: PyPTO inlines it (a notify), so the
call is no opaque publishing write and nothing is inserted after it; the put still gets its fence."""

import pypto.language as pl
import pypto.language.distributed as pld

from .comm.ops import ping

N = 64


@pl.jit.incore
def push(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
         sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
    sig = ping(sig, peer)
    return x
