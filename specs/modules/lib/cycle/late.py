"""The other module of a refused import cycle (lib/cycle/early.py)."""

import pypto.language as pl
import pypto.language.distributed as pld

from .early import early_notify


@pl.jit.inline
def late_wait(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)
    sig = early_notify(sig, peer)
    return sig
