/**
 * The kernel the analysis thread audits once before any document (WarmMessage): small, and
 * touching each shipped contract (a remote write and a wait, a cache policy, a manual scope), so
 * that their rules are loaded and the engine's code compiled when the first document comes.
 */
export const WARM_KERNEL = `import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Warm:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        data: pl.InOut[pl.Tensor[[4, 64], pl.FP32]],
        win: pld.DistributedTensor[[4, 64], pl.FP32],
        signal: pld.DistributedTensor[[1, 4], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        for i in pl.range(3):
            chunk = pl.load(data, [i, 0], [1, 64], cache=pl.CachePolicy.BYPASS)
            pld.tile.remote_store(chunk, target=win, peer=peer, offsets=[i, 0])
            pld.system.notify(target=signal, peer=peer, offsets=[0, i], value=1, op=pld.NotifyOp.AtomicAdd)
            pld.system.wait(signal=signal, offsets=[0, i], expected=1, cmp=pld.WaitCmp.Ge)
            incoming = pl.load(win, [i, 0], [1, 64])
            pl.store(incoming, [i, 0], data)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        data: pl.InOut[pl.Tensor[[4, 64], pl.FP32]],
        win: pld.DistributedTensor[[4, 64], pl.FP32],
        signal: pld.DistributedTensor[[1, 4], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):
        with pl.manual_scope():
            first = pl.array.create(2, pl.TASK_ID)
            for b, (tids,) in pl.range(2, init_values=(first,)):
                data, tid = pl.submit(self.step, data, win, signal, peer)
                tids[b] = tid
                done = pl.yield_(tids)
            for b in pl.parallel(2):
                data, t2 = pl.submit(self.step, data, win, signal, peer, deps=[done])
        return data
`;
