"""Comm helpers: `@pl.jit.inline` functions PyPTO's InlineFunctions pass expands at each call."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.inline
def ping(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return sig


@pl.jit.inline
def wait_one(sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="wait"):
        pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return sig
