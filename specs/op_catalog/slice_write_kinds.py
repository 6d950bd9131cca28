# A slice write `dst[<slices>] = src` is PyPTO's `dst = pl.assemble(dst, src, offsets)`, resolved
# by dst's type like a written pl.assemble: into a tile (a parameter, an annotated tile, the
# result of pl.load) tile.assemble, which writes no GM; into a tensor tensor.assemble, which
# PyPTO lowers to tile.store when the value is a tile, a publishing write into a window that
# needs its release (a tensor copied into a window stays tensor.assemble, no publishing write);
# a target of unknown type is reported.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class SliceWriteKinds:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        t: pl.Tile[[16, 64], pl.FP32],
        win: pld.DistributedTensor[[16, 64], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        t[0:8, :] = x[8:16, :]
        u = pl.load(x, [0, 0], [16, 64])
        u[8:16, 0:32] = t[0:8, 0:32]
        v: pl.Tile[[16, 64], pl.FP32] = pl.load(x, [0, 0], [16, 64])
        v[:, 0:32] = u[:, 32:64]
        win[0:8, :] = x[0:8, :]
        win[8:16, :] = u[0:8, :]
        z = self.helper(x)
        z[0:8, :] = x[0:8, :]
        pld.system.notify(sig, 1, [0, 0], 1)
