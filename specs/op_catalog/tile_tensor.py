# pl.read / pl.write / pl.matmul / pl.assemble resolve to tile.* or tensor.* by their operand's
# type, as PyPTO's language layer does: a pl.read of a Tile after a wait is no cached GM read, a
# pl.write into a Tile is no publishing write.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TileTensor:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        win: pld.DistributedTensor[[16, 16], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        acc: pl.Tile[[16, 16], pl.FP32],
    ):
        t = pl.load(src, [0, 0], [16, 16])
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        x = pl.read(t, [0, 0])
        y = pl.read(acc, [1, 1])
        pl.write(t, [0, 0], x)
        m = pl.matmul(t, acc)
        z = pl.read(m, [0, 0])
        s = pl.read(src, [0, 0])
        pl.write(win, [0, 0], y)
        pl.assemble(win, src, [0, 0])
