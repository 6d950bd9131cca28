"""An alias of pypto.language long enough that `@alias.program` is past 64 characters, and a
program decorator in parentheses and split by a `\` continuation: each program is read."""

import pypto.language as pl
import pypto.language as pypto_language_module_alias_pypto_language_module_alias_pypto_language_module_alias_
import pypto.language.distributed as pld


@pypto_language_module_alias_pypto_language_module_alias_pypto_language_module_alias_.program
class Long:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 8])
        return x


@(pl.program)
class Parenthesized:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 8])
        return x


@pl.\
program
class Continued:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, 8])
        return x
