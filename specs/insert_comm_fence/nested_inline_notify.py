"""`audit --as-written` follows inline helpers to any depth, as PyPTO's InlineFunctions inlines them
transitively: in kernel "a" the write reaches the notify of `ping` through `relay` (two levels
down) and is reported at that notify, not at the end of the function; in kernel "b" `fenced_relay`
calls `fence_all` (which releases) before `ping`: no error; in kernel "c" the write in `put_row`,
two levels down, goes on after both helpers return and is reported at the kernel's notify."""
import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.jit.inline
def ping(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return sig


@pl.jit.inline
def relay(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    sig = ping(sig, peer)
    return sig


@pl.inline
def fence_all():
    pl.system.cacheinvalid()
    pl.system.fence()


@pl.jit.inline
def fenced_relay(sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    fence_all()
    sig = relay(sig, peer)
    return sig


@pl.inline
def put_row(t: pl.Tile[[1, N], pl.FP32], dst: pl.Tensor[[1, N], pl.FP32]):
    pl.store(t, [0, 0], dst)


@pl.inline
def put_relay(t: pl.Tile[[1, N], pl.FP32], dst: pl.Tensor[[1, N], pl.FP32]):
    put_row(t, dst)


@pl.jit
def entry(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
          sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="a"):
        t = pl.load(x, [0, 0], [1, N])
        win = pl.store(t, [0, 0], win)
        sig = relay(sig, peer)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="b"):
        t = pl.load(x, [0, 0], [1, N])
        win = pl.store(t, [0, 0], win)
        sig = fenced_relay(sig, peer)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="c"):
        t = pl.load(x, [0, 0], [1, N])
        put_relay(t, win)
        pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    return x
