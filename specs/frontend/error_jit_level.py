import pypto.language as pl


@pl.jit.incore
def fine(a: pl.Tensor[[16], pl.FP32]):
    pass


@pl.jit.host(level=pl.Level.HOST)
def wrong(a: pl.Tensor[[16], pl.FP32]):
    pass
