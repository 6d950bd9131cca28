"""A three-level chain of inline helpers (this kernel → lib/comm/relay.py → lib/sync/wait.py,
imported relatively, and lib/sync/notify.py, imported absolutely): PyPTO's InlineFunctions
inlines them transitively, so the put of relay's `push` gets its fence in relay.py and the wait
two imports deep gets its cacheinvalid in wait.py; nothing is inserted after any call here."""

import pypto.language as pl
import pypto.language.distributed as pld

from lib.comm.relay import push

N = 64


@pl.jit.incore
def send(x: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32],
         sig: pld.DistributedTensor[[2, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
    x = push(x, win, sig, peer)
    t = pl.load(win, [0, 0], [1, N])
    return t
