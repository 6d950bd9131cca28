import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class PlainTensor:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]], v: pl.Scalar[pl.FP32]):
        # a plain pl.Tensor destination is never a publishing write
        pl.store(t, [0, 0], out)
        pl.write(out, [0, 1], v)
        r = pld.tile.remote_load(out, 1, [0, 0], [1, N])
