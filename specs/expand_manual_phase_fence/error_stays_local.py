"""An error finding stays local to its program: `Broken` carries deps= on a plain call (an error,
exit 2) and is left untouched; `Fine` is still rewritten."""
import pypto.language as pl

N = 4


@pl.program
class Broken:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
        with pl.manual_scope():
            for i in pl.range(4):
                self.k(x, deps=[tids])
            for j in pl.range(4):
                x, t = pl.submit(self.k, x, deps=[tids])


@pl.program
class Fine:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID]):
        with pl.manual_scope():
            for j in pl.range(4):
                x, t = pl.submit(self.k, x, deps=[tids])
