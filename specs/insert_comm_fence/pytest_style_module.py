import pytest
import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir, passes

NUM_RANKS = 4
SHAPE = [16, 64]


def _helper(x):
    return [i for i in range(x) if i % 2]  # other Python is skipped


class TestInsertCommFence:
    @pytest.mark.parametrize("n", [1, 2])
    def test_local_store(self, n):
        @pl.program
        class Before:
            @pl.function(type=pl.FunctionType.InCore)
            def kernel(self, t: pl.Tile[[16, 64], pl.FP32], win: pld.DistributedTensor[SHAPE, pl.FP32], sig: pld.DistributedTensor[[1, NUM_RANKS], pl.INT32]):
                pl.store(t, [0, 0], win)
                for p in pl.range(NUM_RANKS):
                    pld.system.notify(sig, p, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)

        @pl.program
        class Expected:
            @pl.function(type=pl.FunctionType.InCore)
            def kernel(self, t: pl.Tile[[16, 64], pl.FP32], win: pld.DistributedTensor[SHAPE, pl.FP32], sig: pld.DistributedTensor[[1, NUM_RANKS], pl.INT32]):
                pl.store(t, [0, 0], win)
                pl.system.cacheinvalid(win, [16, 64], [0, 0])
                pl.system.fence()
                for p in pl.range(NUM_RANKS):
                    pld.system.notify(sig, p, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)

        after = passes.insert_comm_fence()(Before)
        ir.assert_structural_equal(after, Expected)


def build(n: int):
    @pl.program
    class Built:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[4, pl.TASK_ID]) -> pl.Tensor[[8, 8], pl.FP32]:
            with pl.scope(mode=pl.ScopeMode.MANUAL):
                for i in pl.range(4):
                    x, t = pl.submit(self.k, x, deps=[tids])
            return x

        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
            return x
    return Built
