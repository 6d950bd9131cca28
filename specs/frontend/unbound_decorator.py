"""`pl` bound by no import (pypto.language is imported as `p`): Python raises NameError at the
decorators, and ptolog says so at each of them instead of reading nothing in silence."""

import pypto.language as p
import pypto.language.distributed as pld


@pl.program
class WaitBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: p.Tensor[[16, 16], p.FP32],
        win: pld.DistributedTensor[[16, 16], p.FP32],
    ):
        t = p.load(src, [0, 0], [16, 16])
        p.store(t, [0, 0], win)
