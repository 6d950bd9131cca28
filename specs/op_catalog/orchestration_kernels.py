# Kernels PyPTO outlines from an Orchestration body before InsertCommFence runs: a CORE_GROUP
# pl.at, a `for ... in pl.spmd` body, a `with pl.spmd` body that does more than dispatch. A
# pl.at of another level is a hierarchy scope (no kernel); orchestration code outside them is
# left alone.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Orch:
    @pl.function(type=pl.FunctionType.InCore)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32]):
        t = pl.load(x, [0, 0], [16, 16])

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        inp: pl.Tensor[[1, 64], pl.INT32],
        payload: pl.InOut[pld.DistributedTensor[[1, 64], pl.INT32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
            t = pl.load(inp, [0, 0], [1, 64])
            pld.tile.remote_store(t, target=payload, peer=peer, offsets=[0, 0])
            pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.Set)
        for i in pl.spmd(4):
            pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
            u = pl.load(payload, [0, 0], [1, 64])
            pl.store(u, [0, 0], payload)
        with pl.spmd(2):
            pld.system.wait(signal, [0, 0], 2, cmp=pld.WaitCmp.Ge)
            v = pl.read(inp, [0, 0])
        with pl.spmd(2):
            self.work(inp)
        with pl.at(level=pl.Level.HOST):
            pld.system.wait(signal, [0, 0], 3, cmp=pld.WaitCmp.Ge)
        pld.system.wait(signal, [0, 0], 4, cmp=pld.WaitCmp.Ge)
