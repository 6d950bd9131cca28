"""Every scope: manual (both spellings), auto, at (levels, name_hint, deps, as), spmd (with/for), cluster."""

import pypto.language as pl

N = 4


@pl.program
class Scopes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[N], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N], pl.FP32]) -> pl.Tensor[[N], pl.FP32]:
        with pl.manual_scope():
            x, t = pl.submit(self.kernel, x)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            x, t = pl.submit(self.kernel, x)
        with pl.scope(mode=1):
            pass
        with pl.scope():
            x, t = pl.submit(self.kernel, x)
        with pl.scope(mode=pl.ScopeMode.AUTO):
            pass
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm"):
            pass
        with pl.at(name_hint="late", level=pl.Level.CORE_GROUP, deps=[t]) as tid:
            pass
        with pl.at(level=pl.Level.CHIP):
            with pl.at(level=pl.Level.CLUSTER):
                pass
        with pl.spmd(N):
            pass
        for r in pl.spmd(N):
            pass
        with pl.cluster():
            pass
        return x
