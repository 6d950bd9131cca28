# The rule file in rules/ declares an effect on a parameter the op does not have: ptolog stops
# with a located error at that declaration (exit 2).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PutSignal:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, win: pld.DistributedTensor[[16, 16], pl.FP32], peer: pl.Scalar[pl.INT32]):
        pld.tile.put_signal(win, peer, win)
