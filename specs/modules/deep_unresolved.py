"""A chain whose second level imports a module ptolog cannot find (lib/comm/shaky.py imports
lib.nowhere): the call there is an opaque write, its markers are inserted after it in shaky.py,
and a located note at shaky's import names the module and where it was looked for."""

import pypto.language as pl
import pypto.language.distributed as pld

from lib.comm.shaky import relay_flag

N = 64


@pl.jit.incore
def signal(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    sig = relay_flag(sig, peer)
    return sig
