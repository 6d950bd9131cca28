# The operand's type picks tile.* or tensor.* even where it is not written as a full annotation:
# a bare `pl.Tensor` / `pl.Tile` parameter, a slice of a tensor (`src[0:8, 0:8]`), arithmetic on
# a tile, and an op whose result has its operand's type (`pl.aiv_shard`, typed by a TypeVar in
# PyPTO). None of these reads is an `unknown-op`; the tensor reads after the wait are cached GM
# reads, the tile reads are not.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class OperandKinds:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor,
        acc: pl.Tile,
        win: pld.DistributedTensor[[16, 16], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        a = pl.read(acc, [0, 0])
        s = pl.read(src, [0, 0])
        v = pl.read(src[0:8, 0:8], [0, 0])
        d = pl.read(acc + acc, [0, 0])
        h = pl.aiv_shard(acc)
        w = pl.read(h, [0, 0])
        pl.write(win, [0, 0], a)
