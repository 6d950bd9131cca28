"""The second level of a chain (chain.py → here): a put, then helpers of another subpackage,
one imported relatively and one absolutely. PyPTO inlines all three levels into the kernel."""

import pypto.language as pl
import pypto.language.distributed as pld

from lib.sync.notify import notify_peer

from ..sync.wait import wait_peer


@pl.jit.inline
def push(x: pl.Tensor[[1, 64], pl.FP32], win: pld.DistributedTensor[[1, 64], pl.FP32],
         sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 64])
    sig = notify_peer(sig, peer)
    sig = wait_peer(sig)
    return x
