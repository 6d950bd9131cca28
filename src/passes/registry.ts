import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** A pass: its rule entry file (which #includes the rest) and, for audit, its contract file. */
export interface PassSpec {
  name: string;
  /** Rule file deriving the pass's edits, relative to the rules directory. */
  entry: string;
  /** Rule file deriving the pass's audit findings (includes `entry`). */
  audit: string;
  summary: string;
}

/** The passes, in PyPTO's pipeline order (the order `apply` runs them when none is named). */
export const PASSES: readonly PassSpec[] = [
  {
    name: 'cache-policy',
    entry: 'cache_policy.dl',
    audit: 'cache_policy_report.dl',
    summary: 'GM cache policy: check pl.set_cache_policy declarations, stamp cache= on the loads they cover',
  },
  {
    name: 'expand-manual-phase-fence',
    entry: 'expand_manual_phase_fence.dl',
    audit: 'phase_fence_report.dl',
    summary: 'ExpandManualPhaseFence: compress N×M task-dependency fan-out through one system.task_dummy barrier',
  },
  {
    name: 'insert-comm-fence',
    entry: 'insert_comm_fence.dl',
    audit: 'comm_contract.dl',
    summary: 'InsertCommFence: cacheinvalid + fence after publishing writes, whole-GM invalidate after waits',
  },
];

/** The pass named `name`, or undefined. */
export function passByName(name: string): PassSpec | undefined {
  return PASSES.find((p) => p.name === name);
}

/** The directory holding the shipped rule files (`rules/` at the package root). */
export function rulesDir(): string {
  // This file is src/passes/registry.ts (tests) or dist/passes/registry.js (CLI): two levels up.
  return join(fileURLToPath(new URL('../..', import.meta.url)), 'rules');
}
