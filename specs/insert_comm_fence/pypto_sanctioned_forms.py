"""Deliberate differences from PyPTO's InsertCommFence (#10; README "Deliberate differences from
PyPTO"): a tuple-unpacking call gets its markers after the whole statement (PyPTO's IR splits it
through a temporary first); a store that rebinds a loop iter-arg invalidates the new binding's
name (the same storage); a run of consecutive waits shares one whole-GM cacheinvalid after its last
wait (PyPTO's pass at the fetched commit puts one after every wait)."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Forms:
    @pl.function(type=pl.FunctionType.InCore)
    def pair(self, x: pl.Tensor[[1, 8], pl.FP32]):
        return x, x

    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, 8], pl.FP32], x: pl.Tensor[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32]):
        a, b = self.pair(x)
        for i, (acc,) in pl.range(2, init_values=(win,)):
            acc = pl.store(t, [0, 0], acc)
            acc_out = pl.yield_(acc)
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.wait(sig, [0, 1], 1, cmp=pld.WaitCmp.Ge)
        v = pl.read(win, [0, 0])
