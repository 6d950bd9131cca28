"""Several programs in one module, printed in order and separated by two blank lines."""
import pypto.language as pl
import pypto.language.distributed as pld
A = 1
B = 2
@pl.program
class One:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[A], pl.FP32]):
        pass
helper = 3
@pl.program
class Two:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pld.DistributedTensor[[B], pl.FP32]):
        pass
@pl.program
class Three:
    @pl.function
    def k(self):
        pass
