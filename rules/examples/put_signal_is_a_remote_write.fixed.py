# Rule test for put_signal_is_a_remote_write.dl: run with `ptolog test rules/examples/`.
# pass: insert-comm-fence
# rules: put_signal_is_a_remote_write.dl
import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class PutSignal:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        # expect: contract-violation, missing-marker
        pld.tile.put_signal(t, win, peer, [0, 0])
        pl.system.fence()
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)

    @pl.function(type=pl.FunctionType.InCore)
    def fenced(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        # a remote write needs the fence only (codegen emits its peer-region cacheinvalid)
        pld.tile.put_signal(t, win, peer, [0, 0])  # ok: contract-violation, missing-marker
        pl.system.fence()
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
