"""An import cycle Python refuses (lib/cycle/early.py ⇄ lib/cycle/late.py): importing early
raises ImportError in late (`early_notify` is not defined yet). ptolog says so, located at late's
import, and judges the rest (the put's fence in early.py, the wait's cacheinvalid in late.py)."""

import pypto.language as pl
import pypto.language.distributed as pld

from lib.cycle.early import early_push

N = 64


@pl.jit.incore
def round_trip(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
               sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    x = early_push(x, win, sig, peer)
    return x
