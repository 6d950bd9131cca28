"""A slice write is lowered by its target's type, as PyPTO's parser does: into a Tensor it is
`tensor.assemble`, into a Tile `tile.assemble` (a tile parameter, an annotated tile, or the
result of a tile op such as `pl.load`). `fmt` prints the slice form; specs/op_catalog/slice_write_kinds.py shows the resolution."""
import pypto.language as pl


@pl.program
class SliceWrites:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 64], pl.FP32], t: pl.Tile[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        out[0:8, :] = x[8:16, :]
        t[0:8, :] = x[8:16, :]
        u = pl.load(x, [0, 0], [16, 64])
        u[8:16, 0:32] = t[0:8, 0:32]
        v: pl.Tile[[16, 64], pl.FP32] = pl.load(x, [0, 0], [16, 64])
        v[:, 0:32] = u[:, 32:64]
        w = pl.store(u, [0, 0], out)
        w[0:8, :] = x[0:8, :]
