import pypto.language as pl


@pl.program
class TwoSpaces:
  @pl.function(type=pl.FunctionType.InCore)
  def kernel(self, n: pl.Scalar[pl.INT32]):
    for i in pl.range(n):
      if i > 1:
        pl.system.fence()
      else:
        with pl.scope():
          pass
    return
