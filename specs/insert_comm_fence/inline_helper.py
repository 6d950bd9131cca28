"""PyPTO parity (#10): PyPTO's InlineFunctions pass expands an `@pl.inline` helper in place before
InsertCommFence runs, so a store inside it is classified at the call site (here into a window) and
gets its region cacheinvalid + fence right after it, in the helper's body; the call itself is no
opaque write."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.inline
def put_row(t: pl.Tile[[1, 8], pl.FP32], dst: pl.Tensor[[1, 8], pl.FP32]):
    pl.store(t, [0, 0], dst)


@pl.program
class InlineHelper:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32], peer: pl.Scalar[pl.INT32]):
        put_row(t, win)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
