/**
 * The programs `ptolog verify` generates for a selection of passes: communication kernels
 * (InsertCommFence), orchestration fan-outs (ExpandManualPhaseFence) and random programs
 * (the cache policy and everything else), each as module text.
 */
import fc from 'fast-check';
import { arbPrograms, programText } from '../gen/arb.js';
import { arbCommProgram, commModuleText } from '../gen/comm.js';
import { arbOrchestrationProgram, orchestrationModuleText } from '../gen/orchestration.js';
import { printProgram } from '../ir/print.js';
import type { PassSpec } from '../passes/registry.js';

/** A generated module: which generator made it, and its text. */
export interface GeneratedModule {
  /** `comm`: communication kernels; `orchestration`: manual-scope fan-outs; `random`: syntactic stress programs. */
  family: 'comm' | 'orchestration' | 'random';
  text: string;
}

/**
 * Modules that exercise `passes`. Soundness is checked on `comm` modules only: the random
 * programs stress syntax (unbound names, `continue` outside loops), not the memory model.
 */
export function arbModule(passes: readonly PassSpec[]): fc.Arbitrary<GeneratedModule> {
  const names = new Set(passes.map((p) => p.name));
  const families: fc.Arbitrary<GeneratedModule>[] = [];
  if (names.has('insert-comm-fence'))
    families.push(arbCommProgram().map((p) => ({ family: 'comm' as const, text: commModuleText(p, printProgram) })));
  if (names.has('expand-manual-phase-fence')) {
    families.push(
      arbOrchestrationProgram().map((p) => ({ family: 'orchestration' as const, text: orchestrationModuleText(p, printProgram) })),
    );
  }
  if (names.has('cache-policy') || families.length === 0)
    families.push(arbPrograms().map((ps) => ({ family: 'random' as const, text: programText(ps) })));
  return families.length === 1 ? families[0]! : fc.oneof(...families);
}
