"""BYPASS on a tensor the scope writes is rejected (Out when only written, InOut when also read); DEFAULT is fine."""

import pypto.language as pl


@pl.program
class BypassWritten:
    @pl.function(type=pl.FunctionType.InCore)
    def update(self, acc: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], src: pl.Tensor[[64, 64], pl.FP32]):
        t = pl.load(src, [0, 0], [64, 64])
        pl.store(t, [0, 0], acc)

    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, src: pl.Tensor[[64, 64], pl.FP32], dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        t = pl.load(src, [0, 0], [64, 64])
        pl.store(t, [0, 0], dst)

    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
        z: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        o2: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        o3: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="store"):
            pl.set_cache_policy(out, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(y, pl.CachePolicy.BYPASS)
            t = pl.load(x, [0, 0], [64, 64])
            u = pl.load(y, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
            pl.store(u, [0, 0], y)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="assemble"):
            pl.set_cache_policy(o2, pl.CachePolicy.BYPASS)
            c: pl.Tensor[[64, 64], pl.FP32] = pl.matmul(x, z)
            o2 = pl.assemble(o2, c, [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="write"):
            pl.set_cache_policy(z, pl.CachePolicy.BYPASS)
            pl.write(z, [0, 0], 1.0)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="calls"):
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            pl.set_cache_policy(o3, pl.CachePolicy.BYPASS)
            self.update(x, z)
            self.fill(z, dst=o3)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="default_ok"):
            pl.set_cache_policy(out, pl.CachePolicy.DEFAULT)
            v = pl.load(out, [0, 0], [64, 64])
            pl.store(v, [0, 0], out)
        return out
