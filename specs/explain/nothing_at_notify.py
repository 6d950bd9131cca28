# explain-line: 15
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32]):
        for i in pl.range(4):
            if i != 0:
                pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        v = pl.read(win, [0, 0])
        pld.tile.remote_store(t, win, 1, [0, 0])
        pld.system.notify(sig, 1, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
