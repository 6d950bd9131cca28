import pypto.language as pl


@pl.program
class Workers:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def worker(self, x: pl.Tensor[[64], pl.FP32]):
        return x
