# explain-line: 14
"""A `pl.at` kernel inside a `@pl.jit.inline` helper is an InCore kernel once PyPTO inlines the helper
and outlines the scope: InsertCommFence puts the fence after the put, in the helper."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.jit.inline
def push(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="push"):
        pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
    return x


@pl.jit
def entry(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32]):
    push(x, win, peer)
    return x
