# Remote publishing writes (op_effect remote_write): each needs a fence before the notify.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class RemoteWrite:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        win: pld.DistributedTensor[[16, 16], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pl.load(src, [0, 0], [16, 16])
        pld.tile.remote_store(t, target=win, peer=peer, offsets=[0, 0])
        pld.tile.remote_store(t, win, peer, [0, 0])
        pld.tensor.remote_store(src, win, peer, [0, 0])
        pld.remote_store(src, target=win, peer=peer, offsets=[0, 0])
        pld.tensor.put(dst=win, peer=peer, src=src)
        pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.Set)
