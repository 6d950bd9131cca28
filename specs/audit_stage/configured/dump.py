"""A pass dump judged as written through `stage = "as-written"` in ptolog.toml: the missing
release markers are warnings and the unreleased write an error; `--stage pipeline` overrides
the configuration."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Dump:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        win: pld.DistributedTensor[[1, 64], pl.FP32],
        sig: pld.DistributedTensor[[1, 4], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pl.load(x, [0, 0], [1, 64])
        pl.store(t, [0, 0], win)
        pl.system.fence()
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
