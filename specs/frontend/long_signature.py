"""A def line that fits in 100 columns prints on one line; a longer one gets one parameter per line."""

import pypto.language as pl


@pl.program
class Signatures:
    @pl.function(type=pl.FunctionType.InCore)
    def short(
        self,
        a: pl.Tensor[[4], pl.FP32],
        b: pl.Tensor[[4], pl.FP32],
    ):
        pass

    @pl.function(type=pl.FunctionType.InCore)
    def long_name_for_a_kernel(self, first_input: pl.Tensor[[128, 128], pl.FP32], second_input: pl.Tensor[[128, 128], pl.FP32]) -> pl.Tensor[[128, 128], pl.FP32]:
        return first_input

    @pl.function(type=pl.FunctionType.InCore)
    def nothing(self):
        pass
