"""One side of a diamond (diamond.py → here → lib/sync/flag.py, imported relatively)."""

import pypto.language as pl

from ..sync.flag import raise_flag


@pl.jit.inline
def left(t: pl.Tile[[1, 64], pl.FP32], win: pl.Tensor[[1, 64], pl.FP32]):
    win = raise_flag(t, win)
    return win
