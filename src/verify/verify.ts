/**
 * `ptolog verify` as a library: runs the checks of checks.ts on generated programs with
 * fast-check and, on a failure, shrinks it to a small counterexample (fast-check's shrinking,
 * then statement-level delta debugging: shrink.ts).
 */
import fc from 'fast-check';
import { loadRules } from '../passes/analyze.js';
import { passRules } from '../passes/pipeline.js';
import type { PassSpec } from '../passes/registry.js';
import type { Runner } from '../runner/runner.js';
import { type CheckFailure, checkProgram, type PropertyName } from './checks.js';
import { contractOpNames } from './contract-ops.js';
import { arbModule } from './programs.js';
import { shrinkStatements } from './shrink.js';

export interface VerifyOptions {
  /** The runner of the passes and rules verified (its rule session shared by every program). */
  runner: Runner;
  /** Number of generated programs (default 100). */
  runs?: number;
  /** fast-check seed; a fresh one is drawn when absent. */
  seed?: number;
  /** Milliseconds one apply may take (default 10 000). */
  timeoutMs?: number;
  /** Called after each generated program is checked (not during shrinking). */
  onProgress?: (done: number, total: number) => void;
}

export type VerifyReport =
  | {
      ok: true;
      runs: number;
      /** Programs the rules refused with errors (nothing to rewrite), and programs they edited. */
      refused: number;
      rewritten: number;
      seed: number;
      properties: PropertyName[];
    }
  | {
      ok: false;
      seed: number;
      failure: CheckFailure;
      /** The shrunk counterexample, a PyPTO module. */
      counterexample: string;
      /** The program checked when the failure was first seen (1-based) and the shrink steps taken. */
      run: number;
      shrinks: number;
    };

class PropertyFailed extends Error {
  constructor(readonly failure: CheckFailure) {
    super(`${failure.property}: ${failure.message}`);
  }
}

/** The properties checked for a selection of passes. */
export function propertiesFor(passes: readonly PassSpec[]): PropertyName[] {
  const ps: PropertyName[] = ['idempotent', 'conservative', 're-parses'];
  // (Each contract's manifest names the models that judge it: [verify] models.)
  if (passes.some((p) => p.verifyModels.includes('memory'))) ps.push('sound');
  if (passes.some((p) => p.verifyModels.includes('task-order'))) ps.push('task-order');
  if (passes.some((p) => p.verifyModels.includes('cache-stamps'))) ps.push('cache-policy');
  return ps;
}

/** Generates programs and checks every property on each; the first failure is shrunk. */
export function verify(o: VerifyOptions): VerifyReport {
  const total = o.runs ?? 100;
  const seed = o.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  const runner = o.runner;
  const passes = runner.passes;
  const checks = o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {};
  let done = 0;
  let refused = 0;
  let rewritten = 0;
  let edited = false;
  let failing = false;
  const prop = fc.property(arbModule(passes, contractOpNames(passes, runner.runOptions())), (m) => {
    edited = false;
    const onRuns = (runs: readonly { edits: number }[]): void => void (edited = runs.some((x) => x.edits > 0));
    const r = checkProgram(m.text, runner, { ...checks, sound: m.family === 'comm', cachePolicy: m.family === 'cache', onRuns });
    if (!failing) {
      if (r === 'refused') refused++;
      if (edited) rewritten++;
      done++;
      o.onProgress?.(done, total);
    }
    if (r !== null && r !== 'refused') {
      failing = true;
      throw new PropertyFailed(r);
    }
  });
  // Rule-file errors (a bad include, an undeclared relation) surface here, before any program.
  for (const pass of passes) {
    const rules = passRules(pass, runner.runOptions());
    loadRules(pass.entry, rules.extra, rules.analyze.rulesRoot, [], runner.session);
    loadRules(pass.audit, rules.extra, rules.analyze.rulesRoot, [], runner.session);
  }
  const details = fc.check(prop, { numRuns: total, seed, endOnFailure: false });
  if (!details.failed) return { ok: true, runs: details.numRuns, refused, rewritten, seed, properties: propertiesFor(passes) };
  const shrunk = details.counterexample?.[0];
  const err = details.errorInstance;
  if (!(err instanceof PropertyFailed)) throw err instanceof Error ? err : new Error(String(err));
  if (!shrunk) return { ok: false, seed, failure: err.failure, counterexample: '', run: done, shrinks: details.numShrinks };
  // fast-check shrinks within the generator's shapes; delta debugging then removes every
  // statement the failure does not need.
  const family = { sound: shrunk.family === 'comm', cachePolicy: shrunk.family === 'cache' };
  const property = err.failure.property;
  const failureOf = (t: string): CheckFailure | null => {
    const r = checkProgram(t, runner, { ...checks, ...family });
    return r !== null && r !== 'refused' && r.property === property ? r : null;
  };
  const text = shrinkStatements(shrunk.text, (t) => failureOf(t) !== null);
  const failure = text === shrunk.text ? err.failure : (failureOf(text) ?? err.failure);
  return { ok: false, seed, failure, counterexample: text, run: done, shrinks: details.numShrinks };
}
