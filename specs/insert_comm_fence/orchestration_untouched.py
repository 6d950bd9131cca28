import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class Orch:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, N], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32]):
        # Orchestration functions never receive markers
        t = pl.submit(self.kernel, x)
        self.kernel(x)
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
