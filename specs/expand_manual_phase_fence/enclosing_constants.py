"""Constants bound in the builder function or test method around a program resolve for that
program (PyPTO reads them as closure variables): each test method's `branches` decides its own
fan-out; a builder parameter stays symbolic."""

import pypto.language as pl

STAGES = 2


class TestFanout:
    def test_small(self):
        branches = 1

        @pl.program
        class Small:
            @pl.function(type=pl.FunctionType.InCore)
            def stripe(self, out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
                return out

            @pl.function(type=pl.FunctionType.Orchestration)
            def main(self, out: pl.Tensor[[16], pl.FP32]):
                with pl.manual_scope():
                    tids: pl.Array[STAGES, pl.TASK_ID] = pl.array.create(STAGES, pl.TASK_ID)
                    for b in pl.parallel(branches):
                        out, t = pl.submit(self.stripe, out, deps=[tids])

    def test_wide(self):
        branches = 4

        @pl.program
        class Wide:
            @pl.function(type=pl.FunctionType.InCore)
            def stripe(self, out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
                return out

            @pl.function(type=pl.FunctionType.Orchestration)
            def main(self, out: pl.Tensor[[16], pl.FP32]):
                with pl.manual_scope():
                    tids: pl.Array[STAGES, pl.TASK_ID] = pl.array.create(STAGES, pl.TASK_ID)
                    for b in pl.parallel(branches):
                        out, t = pl.submit(self.stripe, out, deps=[tids])


def build(branches):
    @pl.program
    class Param:
        @pl.function(type=pl.FunctionType.InCore)
        def stripe(self, out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, out: pl.Tensor[[16], pl.FP32]):
            with pl.manual_scope():
                tids: pl.Array[STAGES, pl.TASK_ID] = pl.array.create(STAGES, pl.TASK_ID)
                for b in pl.parallel(branches):
                    out, t = pl.submit(self.stripe, out, deps=[tids])

    return Param
