"""`audit --as-written` judges paths per outlined kernel, as InsertCommFence sees them: a write reaching
a notify inside an inline helper it calls is reported at that notify (`fenced_ping` releases
first: no error); a wait in kernel "c" starts no path into kernel "d"; a write reaching the end of
its `pl.at` kernel is reported there, not at the end of the function."""
import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.jit.inline
def ping(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return sig


@pl.jit.inline
def fenced_ping(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pl.system.cacheinvalid()
    pl.system.fence()
    pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return sig


@pl.jit
def entry(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
          sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="a"):
        t = pl.load(x, [0, 0], [1, N])
        win = pl.store(t, [0, 0], win)
        sig = ping(sig, peer)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="b"):
        t = pl.load(x, [0, 0], [1, N])
        win = pl.store(t, [0, 0], win)
        sig = fenced_ping(sig, peer)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="c"):
        pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)
        pld.tensor.put(dst=win, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, N])
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="d"):
        v = pl.read(win, [0, 0])
    return x
