"""Keyword and positional forms of the same op print the same (positional, qualified)."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Forms:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        local: pl.Tensor[[1, 8], pl.FP32],
        dst: pld.DistributedTensor[[1, 8], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        p: pl.Scalar[pl.INT32],
    ):
        t = pl.load(local, [0, 0], [1, 8])
        pld.tile.remote_store(t, target=dst, peer=p, offsets=[0, 0])
        pld.tile.remote_store(t, dst, p, [0, 0])
        pld.tile.remote_store(tile=t, target=dst, peer=p, offsets=[0, 0])
        pld.tile.put(t, dst, peer=p, offsets=[0, 0])
        pld.tensor.put(local, target=dst, peer=p, offsets=[0, 0])
        pld.tile.get(t, source=dst, peer=p, offsets=[0, 0])
        pld.tensor.get(target=local, source=dst, peer=p, offsets=[0, 0])
        pld.system.notify(op=pld.NotifyOp.Set, value=1, offsets=[0, 0], peer=p, target=sig)
        pld.system.wait(sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Eq)
        pl.store(t, offsets=[0, 0], output_tensor=local)
        pl.write(local, indices=[0, 1], value=p)
        v = pl.read(local, indices=[0, 1])
        pl.system.cacheinvalid(dst, [1, 8], [0, 0])
        pl.system.cacheinvalid(tensor=dst, shapes=[1, 8], offsets=[0, 0])
        pl.system.cacheinvalid()
        pl.system.fence()
        u = pl.tile.load(local, [0, 0], [1, 8], cache=pl.CachePolicy.DEFAULT)
        w = pl.matmul(t, t, out_dtype=pl.FP32, b_trans=True, a_trans=False)
        z = pl.unknown_op(t, zeta=1, alpha=2)
        pl.store(t, [0, 0], output_tensor=local)
