"""A PyPTO-style test module: pytest imports, helpers, expected programs, test functions."""

import pytest

import pypto
import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir, passes

NRANKS = 4
SIZES = [(4, 8), (16, 16)]


def run_pass(program):
    return passes.insert_comm_fence()(program)


class TestInsertCommFence:
    def test_publishing_write(self):
        @pl.program
        class Before:
            @pl.function(type=pl.FunctionType.InCore)
            def k(
                self,
                win: pld.DistributedTensor[[1, NRANKS], pl.FP32],
                sig: pld.DistributedTensor[[1, 1], pl.INT32],
                p: pl.Scalar[pl.INT32],
            ):
                pl.write(win, [0, 0], 1.0)
                pld.system.notify(target=sig, peer=p, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)

        @pl.program
        class Expected:
            @pl.function(type=pl.FunctionType.InCore)
            def k(
                self,
                win: pld.DistributedTensor[[1, NRANKS], pl.FP32],
                sig: pld.DistributedTensor[[1, 1], pl.INT32],
                p: pl.Scalar[pl.INT32],
            ):
                pl.write(win, [0, 0], 1.0)
                pl.system.fence()
                pld.system.notify(target=sig, peer=p, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)

        After = run_pass(Before)
        ir.assert_structural_equal(After, Expected)

    @pytest.mark.parametrize("rows,cols", SIZES)
    def test_shapes(self, rows, cols):
        with pytest.raises(ValueError):
            raise ValueError(f"{rows}x{cols}")


if __name__ == "__main__":
    pytest.main([__file__, "-v"])
