"""Names are read through the imports: `pyl` is pypto.language, `dist` pypto.language.distributed; inserted text uses them."""

import pypto.language as pyl
import pypto.language.distributed as dist


@pyl.program
class Ring:
    @pyl.function(type=pyl.FunctionType.InCore)
    def step(self, t: pyl.Tile[[1, 8], pyl.FP32], win: dist.DistributedTensor[[1, 8], pyl.FP32], sig: dist.DistributedTensor[[1, 1], pyl.INT32]):
        pyl.store(t, [0, 0], win)
        dist.system.notify(sig, [0, 0], 1, op=dist.NotifyOp.AtomicAdd)
        dist.system.wait(sig, [0, 0], 1, cmp=dist.WaitCmp.Ge)
        x = pyl.load(win, [0, 0], [1, 8])
