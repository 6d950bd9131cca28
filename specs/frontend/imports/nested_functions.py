"""`@pl.function` and `@pl.inline` defined in a builder function (closures over its locals), not
in a program class: each is read and judged, and a call of the inline helper is expanded."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 64


def build(q_tile: int):
    T = q_tile

    @pl.inline
    def ping(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        return sig

    @pl.function(type=pl.FunctionType.InCore)
    def kern(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
             sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
        sig = ping(sig, peer)
        return x

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
                 sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
            x = kern(x, win, sig, peer)
            return x

    return P
