"""`from ... import` forms: the module, its members, and DistributedTensor by name (window-bound)."""

from pypto import language as L
from pypto.language import Tensor, FP32, jit
from pypto.language.distributed import DistributedTensor


@jit.incore
def publish(x: Tensor[[1, 8], FP32], win: DistributedTensor[[1, 8], FP32]):
    t = L.load(x, [0, 0], [1, 8])
    L.store(t, [0, 0], win)
