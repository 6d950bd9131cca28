"""Enum literals, and integers where an op parameter takes an enum (printed symbolically)."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Enums:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 8], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        p: pl.Scalar[pl.INT32],
    ):
        pld.system.notify(target=sig, peer=p, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.notify(target=sig, peer=p, offsets=[0, 0], value=1, op=0)
        pld.system.notify(sig, p, [0, 0], 1, op=1)
        pld.system.wait(signal=sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        pld.system.wait(sig, [0, 0], 1, cmp=3)
        pld.system.wait(sig, [0, 0], 1, cmp=0)
        a = pl.load(x, [0, 0], [1, 8], cache=pl.CachePolicy.BYPASS)
        b = pl.load(x, [0, 0], [1, 8], cache=1)
        c = pl.load(x, [0, 0], [1, 8], cache=0)
        pl.set_cache_policy(x, 0)
        d = pl.cast(a, pl.DataType.BF16)
        e = pl.cast(a, pl.FP16)
        f = pl.foo(mode=pl.ScopeMode.AUTO, space=pl.MemorySpace.Vec)

    @pl.function(type=2)
    def int_kind(self):
        pass

    @pl.function(type=pl.FunctionType.AIV)
    def aiv(self):
        pass

    @pl.function(type=pl.FunctionType.AIC)
    def aic(self):
        pass

    @pl.function(type=pl.FunctionType.Group)
    def group(self):
        pass

    @pl.function(type=pl.FunctionType.Spmd)
    def spmd(self):
        pass

    @pl.function(type=pl.FunctionType.Inline)
    def inline(self):
        pass

    @pl.function(type=pl.FunctionType.Graph)
    def graph(self):
        pass
