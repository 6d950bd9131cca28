# Rule test for ttest_is_a_wait.dl: run with `ptolog test rules/examples/`.
# pass: insert-comm-fence
# rules: ttest_is_a_wait.dl
import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.program
class TtestIsAWait:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        # expect: missing-marker
        pld.system.ttest(sig, [0, 0], 1)
        v = pl.read(win, [0, 0])  # expect: contract-violation

    @pl.function(type=pl.FunctionType.InCore)
    def already_marked(
        self,
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        pld.system.ttest(sig, [0, 0], 1)  # ok: missing-marker
        pl.system.cacheinvalid()
        v = pl.read(win, [0, 0])  # ok: contract-violation

    @pl.function(type=pl.FunctionType.InCore)
    def a_run_of_ttests(
        self,
        win: pld.DistributedTensor[[1, N], pl.FP32],
        sig: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        # only the last of a run of waits takes the cacheinvalid
        pld.system.ttest(sig, [0, 0], 1)  # ok: missing-marker
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)  # expect: missing-marker
        v = pl.read(win, [0, 0])  # expect: contract-violation
