import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class RemoteWrites:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        t: pl.Tile[[1, N], pl.FP32],
        x: pl.Tensor[[1, N], pl.FP32],
        dst: pld.DistributedTensor[[1, N], pl.FP32],
        peer: pl.Scalar[pl.INT32],
    ):
        pld.tile.remote_store(t, target=dst, peer=peer, offsets=[0, 0])
        pld.tile.remote_store(t, dst, peer, [0, 0])
        pld.tile.put(t, dst, peer, [0, 0])
        pld.tensor.put(x, target=dst, peer=peer, offsets=[0, 0])
        pld.tensor.remote_store(x, dst, peer, [0, 0])  # lowered to pld.tile.remote_store: a remote write
