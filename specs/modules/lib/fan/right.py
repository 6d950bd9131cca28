"""The other side of a diamond (diamond.py → here → lib/sync/flag.py, imported absolutely),
waiting first (lib/sync/wait.py)."""

import pypto.language as pl
import pypto.language.distributed as pld

from lib.sync.flag import raise_flag
from lib.sync.wait import wait_peer


@pl.jit.inline
def right(t: pl.Tile[[1, 64], pl.FP32], win: pl.Tensor[[1, 64], pl.FP32], sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    sig = wait_peer(sig)
    win = raise_flag(t, win)
    return win
