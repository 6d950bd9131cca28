"""One comment line ends in a lone CR: Python ends the comment there, so the wait after it is still read."""

import pypto.language as pl
import pypto.language.distributed as pld

NRANKS = 4
CHUNK = 64


@pl.program
class RingAllReduce:
    @pl.function(type=pl.FunctionType.InCore)
    def ring_step(
        self,
        data: pl.InOut[pl.Tensor[[NRANKS, CHUNK], pl.FP32]],
        win: pld.DistributedTensor[[NRANKS, CHUNK], pl.FP32],
        signal: pld.DistributedTensor[[1, NRANKS], pl.INT32],
        next_rank: pl.Scalar[pl.INT32],
    ):
        for step in pl.range(NRANKS - 1):
            chunk = pl.load(data, [step, 0], [1, CHUNK])
            # send my chunk into the next rank's window
            pld.tile.remote_store(chunk, target=win, peer=next_rank, offsets=[step, 0])
            pld.system.notify(target=signal, peer=next_rank, offsets=[0, step], value=1, op=pld.NotifyOp.AtomicAdd)
            # wait for the previous rank's chunk, then reduce it into data            pld.system.wait(signal=signal, offsets=[0, step], expected=1, cmp=pld.WaitCmp.Ge)
            incoming = pl.load(win, [step, 0], [1, CHUNK])
            acc = pl.load(data, [step, 0], [1, CHUNK])
            total = pl.add(acc, incoming)
            pl.store(total, [step, 0], data)
