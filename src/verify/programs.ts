/**
 * The programs `ptolog verify` generates for a selection of passes: communication kernels
 * (InsertCommFence), orchestration fan-outs (ExpandManualPhaseFence) and random programs
 * (the cache policy and everything else), each as module text.
 */
import fc from 'fast-check';
import { arbCommProgram, commModuleText } from '../gen/comm.js';
import { arbOrchestrationProgram, orchestrationModuleText } from '../gen/orchestration.js';
import { arbPrograms, programText } from '../gen/arb.js';
import { printProgram } from '../ir/print.js';
import type { PassSpec } from '../passes/registry.js';

/** Module texts of programs that exercise `passes`. */
export function arbModuleText(passes: readonly PassSpec[]): fc.Arbitrary<string> {
  const names = new Set(passes.map((p) => p.name));
  const families: fc.Arbitrary<string>[] = [];
  if (names.has('insert-comm-fence')) families.push(arbCommProgram().map((p) => commModuleText(p, printProgram)));
  if (names.has('expand-manual-phase-fence')) families.push(arbOrchestrationProgram().map((p) => orchestrationModuleText(p, printProgram)));
  if (names.has('cache-policy') || families.length === 0) families.push(arbPrograms().map((ps) => programText(ps)));
  return families.length === 1 ? families[0]! : fc.oneof(...families);
}
