// A single-program PyPTO file of about `statements` statements for the language-server bench:
// InCore kernels of a ring all-reduce step (each with findings: publishing writes and waits
// without their markers) and one orchestration function per four kernels that calls them.
//   import { singleProgram } from './gen.mjs'; singleProgram(2000) -> { text, editLine }
/** The text, and a 1-based line inside the middle kernel's body (where the bench edits). */
export function singleProgram(statements) {
  const perKernel = 11; // statements of one kernel (the loop and its body)
  const perGroup = 4 * perKernel + 5; // four kernels and their orchestration function
  const groups = Math.max(1, Math.round(statements / perGroup));
  const out = [
    '"""A generated single-program file (bench/lsp/gen.mjs)."""',
    '',
    'import pypto.language as pl',
    'import pypto.language.distributed as pld',
    '',
    'NRANKS = 4',
    'CHUNK = 64',
    '',
    '',
    '@pl.program',
    'class Generated:',
  ];
  const sig = [
    '        self,',
    '        data: pl.InOut[pl.Tensor[[NRANKS, CHUNK], pl.FP32]],',
    '        win: pld.DistributedTensor[[NRANKS, CHUNK], pl.FP32],',
    '        signal: pld.DistributedTensor[[1, NRANKS], pl.INT32],',
    '        next_rank: pl.Scalar[pl.INT32],',
    '    ):',
  ];
  let editLine = 0;
  for (let g = 0; g < groups; g++) {
    for (let k = 0; k < 4; k++) {
      const name = `step_${g}_${k}`;
      out.push('    @pl.function(type=pl.FunctionType.InCore)', `    def ${name}(`, ...sig);
      out.push(
        '        for step in pl.range(NRANKS - 1):',
        '            chunk = pl.load(data, [step, 0], [1, CHUNK])',
        '            pld.tile.remote_store(chunk, target=win, peer=next_rank, offsets=[step, 0])',
        '            pld.system.notify(target=signal, peer=next_rank, offsets=[0, step], value=1, op=pld.NotifyOp.AtomicAdd)',
        '            pld.system.wait(signal=signal, offsets=[0, step], expected=1, cmp=pld.WaitCmp.Ge)',
        '            incoming = pl.load(win, [step, 0], [1, CHUNK])',
        '            acc = pl.load(data, [step, 0], [1, CHUNK])',
        '            total = pl.add(acc, incoming)',
        `            scaled = pl.mul(total, ${k + 1}.0)`,
        '            pl.store(scaled, [step, 0], data)',
      );
      if (g === Math.floor(groups / 2) && k === 1) editLine = out.length - 2; // the `total = ...` line
      out.push(`        rows_${k} = ${g * 4 + k}`, '');
    }
    out.push('    @pl.function(type=pl.FunctionType.Orchestration)', `    def run_${g}(`, ...sig);
    for (let k = 0; k < 4; k++) out.push(`        self.step_${g}_${k}(data, win, signal, next_rank)`);
    out.push('        return data', '');
  }
  return { text: `${out.join('\n')}\n`, editLine };
}
