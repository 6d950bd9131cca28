"""The second level of a chain whose third level cannot be found (deep_unresolved.py → here):
its call is read as an opaque write, with a located note at the import, here."""

import pypto.language as pl
import pypto.language.distributed as pld

from lib.nowhere import lost_notify


@pl.jit.inline
def relay_flag(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    sig = lost_notify(sig, peer)
    return sig
