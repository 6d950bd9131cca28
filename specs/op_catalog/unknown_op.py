# An op the catalog does not know, in a kernel InsertCommFence acts on: an unknown-op note,
# never silently inert. A dispatching op whose operand's type is unknown: a note too.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Unknown:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        win: pld.DistributedTensor[[16, 16], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        pld.tile.put_signal(win, peer, sig)
        q = pl.vendor_thing(win)
        r = pl.read(q, [0, 0])
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.Set)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, win: pld.DistributedTensor[[16, 16], pl.FP32]):
        pl.vendor_thing(win)
