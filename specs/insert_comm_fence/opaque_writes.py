import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class OpaqueWrites:
    @pl.function(type=pl.FunctionType.InCore)
    def helper(self, x: pl.Tensor[[1, N], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[1, N], pl.FP32], t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[2, N], pl.FP32]):
        self.helper(x)
        y = self.helper(x)
        pl.store(t, [0, 0], pl.tensor.view(win, [1, N], [1, 0]))  # inline destination: opaque
