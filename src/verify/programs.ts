/**
 * The programs `ptolog verify` generates for a selection of passes: communication kernels
 * (InsertCommFence), orchestration fan-outs (ExpandManualPhaseFence), cache-policy scopes and
 * random programs (for a selection with none of these), each as module text.
 */
import fc from 'fast-check';
import { arbPrograms, programText } from '../gen/arb.js';
import { arbCacheProgram, cacheModuleText } from '../gen/cache.js';
import { arbCommProgram, commModuleText } from '../gen/comm.js';
import { arbOrchestrationProgram, orchestrationModuleText } from '../gen/orchestration.js';
import { printProgram } from '../ir/print.js';
import type { PassSpec } from '../passes/registry.js';
import { opStatement } from './contract-ops.js';

/** A generated module: which generator made it, and its text. */
export interface GeneratedModule {
  /** `comm`: communication kernels; `orchestration`: manual-scope fan-outs; `cache`: cache-policy scopes; `random`: syntactic stress programs. */
  family: 'comm' | 'orchestration' | 'cache' | 'random';
  text: string;
}

/**
 * Modules that exercise `passes`. Soundness is checked on `comm` modules only, the cache-policy
 * model on `cache` modules: the random programs stress syntax (unbound names, `continue`
 * outside loops), not the memory model.
 */
export function arbModule(passes: readonly PassSpec[], userOps: readonly string[] = []): fc.Arbitrary<GeneratedModule> {
  // Each contract's manifest names the families that exercise it ([verify] programs).
  const wanted = new Set(passes.flatMap((p) => p.verifyPrograms));
  const families: fc.Arbitrary<GeneratedModule>[] = [];
  if (wanted.has('comm') || userOps.length > 0) {
    // Communication kernels that also call the ops a user's contract (or extension) names.
    const extraLeaves = userOps.map(opStatement);
    families.push(arbCommProgram({ extraLeaves }).map((p) => ({ family: 'comm' as const, text: commModuleText(p, printProgram) })));
  }
  if (wanted.has('orchestration')) {
    families.push(
      arbOrchestrationProgram().map((p) => ({ family: 'orchestration' as const, text: orchestrationModuleText(p, printProgram) })),
    );
  }
  if (wanted.has('cache')) families.push(arbCacheProgram().map((p) => ({ family: 'cache' as const, text: cacheModuleText(p) })));
  if (wanted.has('random')) families.push(arbPrograms().map((ps) => ({ family: 'random' as const, text: programText(ps) })));
  if (families.length === 0) families.push(arbPrograms().map((ps) => ({ family: 'random' as const, text: programText(ps) })));
  return families.length === 1 ? families[0]! : fc.oneof(...families);
}
