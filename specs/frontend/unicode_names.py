"""Names beyond ASCII, as Python reads them (PEP 3131): XID_Start then XID_Continue characters,
NFKC-normalised (`ﬁle` is `file`, `ｘ` is `x`, a decomposed `é` is the composed one)."""

import pypto.language as pl

N = 8


@pl.program
class Ring:
    @pl.function(type=pl.FunctionType.InCore)
    def ring_ステップ(self, x: pl.Tensor[[1, N], pl.FP32], ﬁle: pl.Scalar[pl.INT32]):
        café = x + 1
        y = file + ｘ
        z = é + 𝑥
        return café

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[1, N], pl.FP32]):
        données = self.ring_ステップ(x, 0)
        return données


@pl.jit.incore
def 核(a: pl.Tensor[[N, 64], pl.FP32], c: pl.Out[pl.Tensor[[N, 64], pl.FP32]]):
    t = pl.load(a, [0, 0], [N, 64])
    pl.store(t, [0, 0], c)
    return c


@pl.jit.inline
def appel(a: pl.Tensor[[N, 64], pl.FP32], c: pl.Out[pl.Tensor[[N, 64], pl.FP32]]):
    c = 核(a, c)
    return c
