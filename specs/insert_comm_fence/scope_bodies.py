import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class ScopeBodies:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
        # ptolog differs: a scope body that is a single bare statement is visited too
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="pub"):
            pl.store(t, [0, 0], win)
