"""Runtime scopes (pl.manual_scope(), pl.scope(), pl.scope(mode=MANUAL)) choose dependency semantics: nothing to attach to."""

import pypto.language as pl


@pl.program
class Runtime:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.manual_scope():
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [64, 64])
                pl.store(t, [0, 0], out)
        with pl.scope():
            pl.set_cache_policy(x, pl.CachePolicy.DEFAULT)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            pl.set_cache_policy(x, 1)
        return out
