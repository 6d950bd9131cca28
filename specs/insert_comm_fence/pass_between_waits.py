"""PyPTO parity (#10): `pass` is no statement in PyPTO's IR, so it does not break a run of
consecutive waits: the run gets one whole-GM cacheinvalid after its last wait."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PassBetweenWaits:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32]):
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pass
        pld.system.wait(sig, [0, 1], 1, cmp=pld.WaitCmp.Ge)
        v = pl.read(win, [0, 0])
