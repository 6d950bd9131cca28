# Rule test for the syncall-handoff contract: run with `ptolog test rules/examples/`.
# pass: syncall-handoff
# rules: .
import pypto.language as pl


@pl.program
class Handoff:
    @pl.function(type=pl.FunctionType.AIV)
    def stage(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        t = pl.load(x, [0, 0], [32, 32])
        pl.store(t, [0, 0], y)
        pl.system.syncall(core_type="aiv_only")  # expect: syncall-unreleased, syncall-stale-read
        u = pl.load(y, [32, 0], [32, 32])
        pl.store(u, [32, 32], y)
        pl.system.cacheinvalid()
        pl.system.fence()
        # ok: syncall-unreleased, syncall-stale-read
        pl.system.syncall(core_type="aiv_only")
        pl.system.cacheinvalid()
        v = pl.load(y, [0, 0], [32, 32])

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        # ok: syncall-unreleased
        pl.system.syncall(core_type="aiv_only")
        return y
