/**
 * Generators of large program texts for benchmarks (and `verify` at scale): an InCore
 * communication kernel of N unrolled ring steps, flat or nested in a loop and a scope.
 * Deterministic: the same N gives the same text.
 */

export type LargeShape = 'flat' | 'nested';

/**
 * An InCore kernel with `n` statements cycling through load, window store, notify, wait and a
 * guarded fence (each `if` counts as one statement, its body as another). Unrolled code
 * repeats lines (which the parser's statement cache exploits); with `unique` every
 * statement's text differs, so every statement goes through the grammar.
 */
export function commKernelText(n: number, shape: LargeShape = 'flat', unique = false): string {
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
    const v = (k: number): number => (unique ? i : i % k);
    switch (i % 5) {
      case 0:
        lines.push(`${ind}x${v(97)} = pl.load(t, [0, ${v(8)}], [1, N])`);
        break;
      case 1:
        lines.push(`${ind}pl.store(x${unique ? i - 1 : (i - 1) % 97}, [0, ${v(8)}], win)  # publish`);
        break;
      case 2:
        lines.push(`${ind}pld.system.notify(target=sig, peer=peer, offsets=[0, ${unique ? i : 0}], value=1, op=pld.NotifyOp.AtomicAdd)`);
        break;
      case 3:
        lines.push(`${ind}pld.system.wait(signal=sig, offsets=[0, 0], expected=${v(7)}, cmp=pld.WaitCmp.Ge)`);
        break;
      default:
        lines.push(`${ind}if peer != ${v(4)}:`, `${ind}    pl.system.fence()`);
        break;
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * An Orchestration function with `n` Submits in a manual scope: blocks of a sequential loop
 * around a parallel loop, each holding two consumers of a full Array[TASK_ID] (compressible)
 * and, every third block, one consumer of an array the block also updates (left direct).
 */
export function orchestrationText(n: number): string {
  const lines = [
    'import pypto.language as pl',
    '',
    'N = 8',
    '',
    '',
    '@pl.program',
    'class Bench:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    '    def k(self, x: pl.Tensor[[8, 8], pl.FP32]):',
    '        pass',
    '',
    '    @pl.function(type=pl.FunctionType.Orchestration)',
    '    def main(self, x: pl.Tensor[[8, 8], pl.FP32], tids: pl.Array[N, pl.TASK_ID], live: pl.Array[4, pl.TASK_ID]):',
    '        with pl.manual_scope():',
  ];
  let submits = 0;
  for (let blk = 0; submits < n; blk++) {
    lines.push(`            for i${blk} in pl.range(2):`);
    lines.push(`                for j${blk} in pl.parallel(4):`);
    lines.push(`                    x, a${blk} = pl.submit(self.k, x, deps=[tids])`);
    lines.push(`                    x, b${blk} = pl.submit(self.k, x, deps=[tids])`);
    submits += 2;
    if (blk % 3 === 2 && submits < n) {
      lines.push(`                x, c${blk} = pl.submit(self.k, x, deps=[live])`);
      lines.push(`                live[i${blk}] = c${blk}`);
      submits += 1;
    }
  }
  return `${lines.join('\n')}\n`;
}
