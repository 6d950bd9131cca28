# Source order (schema.dl preorder), not node ids: the store nested in the loop comes before
# the first syncall (released before it, a load follows it); the store after it comes before
# the second (released), which no GM read follows. The Orchestration function is not acted on.
# explain-line: 15
import pypto.language as pl


@pl.program
class Order:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        for i in pl.range(2):
            t = pl.load(x, [i, 0], [32, 32])
            pl.store(t, [i, 0], y)
        pl.system.syncall(core_type="aiv_only")
        u = pl.load(y, [32, 0], [32, 32])
        pl.store(u, [32, 32], y)
        pl.system.syncall(core_type="aiv_only")
        v = pl.add(u, u)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        # not a kernel function: the contract does not act here
        y = self.stage(x, y)
        return y
