# A subscript with a scalar index for every dimension of a tensor (`src[0, 0]` on a 2-D tensor)
# is PyPTO's tensor.read: a cached GM read, stale after a wait until the whole-GM
# cacheinvalid. With a slice (`src[0:8, 0]`) or fewer indices (`src[1]`) it is a view
# (tensor.slice), which reads nothing; on a tile it is tile.read (no GM access).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ElementRead:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        acc: pl.Tile[[16, 16], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        a = src[0, 0]
        b = src[0:8, 0]
        c = src[1]
        d = acc[0, 0]
