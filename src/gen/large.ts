/**
 * Generators of large program texts for benchmarks (and `verify` at scale): an InCore
 * communication kernel of N unrolled ring steps, flat or nested in a loop and a scope.
 * Deterministic: the same N gives the same text.
 */

export type LargeShape = 'flat' | 'nested';

/**
 * An InCore kernel with `n` statements cycling through load, window store, notify, wait and a
 * guarded fence (each `if` counts as one statement, its body as another).
 */
export function commKernelText(n: number, shape: LargeShape = 'flat'): string {
  const lines = [
    'import pypto.language as pl',
    'import pypto.language.distributed as pld',
    '',
    'N = 8',
    '',
    '',
    '@pl.program',
    'class Bench:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    '    def kernel(',
    '        self,',
    '        t: pl.Tensor[[1, N], pl.FP32],',
    '        win: pld.DistributedTensor[[1, N], pl.FP32],',
    '        sig: pld.DistributedTensor[[1, 1], pl.INT32],',
    '        peer: pl.Scalar[pl.INT32],',
    '    ):',
  ];
  let ind = '        ';
  if (shape === 'nested') {
    lines.push(`${ind}for i in pl.range(4):`);
    ind += '    ';
    lines.push(`${ind}with pl.at(level=pl.Level.CORE_GROUP):`);
    ind += '    ';
  }
  for (let i = 0; i < n; i++) {
    switch (i % 5) {
      case 0:
        lines.push(`${ind}x${i % 97} = pl.load(t, [0, ${i % 8}], [1, N])`);
        break;
      case 1:
        lines.push(`${ind}pl.store(x${(i - 1) % 97}, [0, ${i % 8}], win)  # publish`);
        break;
      case 2:
        lines.push(`${ind}pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)`);
        break;
      case 3:
        lines.push(`${ind}pld.system.wait(signal=sig, offsets=[0, 0], expected=${i % 7}, cmp=pld.WaitCmp.Ge)`);
        break;
      default:
        lines.push(`${ind}if peer != ${i % 4}:`, `${ind}    pl.system.fence()`);
        break;
    }
  }
  return lines.join('\n') + '\n';
}
