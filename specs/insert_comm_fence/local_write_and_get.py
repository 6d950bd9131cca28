import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class LocalWriteGet:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        win: pld.DistributedTensor[[1, N], pl.FP32],
        src: pld.DistributedTensor[[1, N], pl.FP32],
        peer: pl.Scalar[pl.INT32],
        v: pl.Scalar[pl.FP32],
    ):
        pl.write(win, [0, 0], v)
        pld.tile.get(win, src, peer, [0, 0])
        pld.tensor.get(win, src, peer, [0, 0])
