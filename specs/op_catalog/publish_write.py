# Local publishing writes (op_effect publish_write), in both spellings and with keywords.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PublishWrite:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        win: pld.DistributedTensor[[16, 16], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pl.load(src, [0, 0], [16, 16])
        pl.store(t, [0, 0], win)
        pl.tile.store(t, offsets=[0, 0], output_tensor=win)
        pl.tensor.write(win, [0, 0], 1.0)
        pl.write(win, [0, 1], 2.0)
        pld.tensor.get(dst=win, peer=peer, src=win)
        pld.tensor.get(win, peer, win)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.Set)
