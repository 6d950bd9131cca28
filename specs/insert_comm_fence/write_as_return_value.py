"""A window write written as the value of `return` or as the argument of `pl.yield_`: PyPTO's
FlattenCallExpr makes it a statement of its own (`t__tmp_v0 = pl.store(...)`) before
InsertCommFence runs, which then inserts the markers after it. `apply` hoists the call the same
way, the markers after it and before the `return` / `pl.yield_`."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def ring(self, x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]) -> pld.DistributedTensor[[1, N], pl.FP32]:
        t = pl.load(x, [0, 0], [1, N])
        for i, (w,) in pl.range(4, init_values=(win,)):
            w2 = pl.yield_(pl.store(t, [0, 0], w))
        return pl.store(t, [0, 0], w2)


@pl.jit.incore
def put_back(t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], peer: pl.Scalar[pl.INT32]):
    return pld.tile.remote_store(t, win, peer, [0, 0])
