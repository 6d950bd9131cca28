"""JIT kernels: a @pl.jit entry's CORE_GROUP scope and a @pl.jit.incore kernel are kernels InsertCommFence acts on."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def main(
    a: pl.Tensor[[64, 64], pl.FP32],
    win: pl.InOut[pld.DistributedTensor[[64, 64], pl.FP32]],
    sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
    peer: pl.Scalar[pl.INT32],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
        ta = pl.load(a, [0, 0], [32, 32])
        pl.store(pl.add(ta, ta), [0, 0], win)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.Set)
    return win


@pl.jit.incore
def consume(win: pld.DistributedTensor[[64, 64], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32]):
    pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
    t = pl.load(win, [0, 0], [32, 32])
    x = pl.read(t, [0, 0])
