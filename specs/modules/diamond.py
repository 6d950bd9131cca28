"""A diamond (this kernel → lib/fan/left.py and lib/fan/right.py → lib/sync/flag.py, one import
relative, one absolute): the shared helper is read once, its store gets its region cacheinvalid
and fence once (in flag.py), and right's wait its cacheinvalid in lib/sync/wait.py."""

import pypto.language as pl
import pypto.language.distributed as pld

from lib.fan.left import left
from lib.fan.right import right

N = 64


@pl.jit.incore
def both(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
         sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    t = pl.load(x, [0, 0], [1, N])
    win = left(t, win)
    win = right(t, win, sig)
    return x
