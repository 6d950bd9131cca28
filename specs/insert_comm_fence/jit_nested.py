"""JIT kernels defined inside a test method or a builder function are read and patched in
place like module-level ones (with the enclosing block's constants)."""

import pypto.language as pl
import pypto.language.distributed as pld


class TestRing:
    def test_publish(self):
        W = 8

        @pl.jit.incore
        def publish(t: pl.Tensor[[1, W], pl.FP32], win: pld.DistributedTensor[[1, W], pl.FP32]):
            tile = pl.load(t, [0, 0], [1, W])
            pl.store(tile, [0, 0], win)

        publish(None, None)

    def test_wait(self):
        @pl.jit.incore
        def wait_then_read(sig: pld.DistributedTensor[[1, 1], pl.INT32], win: pld.DistributedTensor[[1, 4], pl.FP32]):
            pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
            x = pl.load(win, [0, 0], [1, 4])
            return x
