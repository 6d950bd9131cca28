"""Every spelling of PyPTO's JIT decorators (python/pypto/jit/): the `jit` object imported from
pypto.jit or pypto.jit.decorator, `@jit`, `@jit.incore(...)`, `@jit.inline`, a module alias,
nested in a test method, parenthesized, split by a `\` continuation. Each kernel is read."""

import pypto.language as pl
import pypto.language.distributed as pld
from pypto.jit.decorator import jit
from pypto.jit import jit as jit2
import pypto.jit as pj

N = 8


@jit.incore(level=pl.Level.AIV)
def put_one(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
    return x


@jit2.inline
def wait_one(sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return sig


@(pj.jit.incore)
def put_two(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32],
            sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
    sig = wait_one(sig)
    return x


@pl.jit.\
    incore
def put_three(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32]):
    pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
    return x


class TestSpmd:
    def test_nested(self):
        @jit.incore
        def put_four(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32]):
            pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
            return x

        @jit
        def entry(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32]):
            x = put_four(x, win, peer)
            return x

        return entry
