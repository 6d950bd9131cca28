/**
 * `ptolog verify` as a library: runs the checks of checks.ts on generated programs with
 * fast-check and, on a failure, shrinks it to a small counterexample.
 */
import fc from 'fast-check';
import { loadRules } from '../passes/analyze.js';
import { passRules, type RunOptions } from '../passes/pipeline.js';
import type { PassSpec } from '../passes/registry.js';
import { RuleSession } from '../passes/rule-session.js';
import { type CheckFailure, checkProgram, type PropertyName } from './checks.js';
import { arbModule } from './programs.js';

export interface VerifyOptions {
  passes: readonly PassSpec[];
  run?: RunOptions;
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
  | { ok: true; runs: number; refused: number; seed: number; properties: PropertyName[] }
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
  if (passes.some((p) => p.name === 'insert-comm-fence')) ps.push('sound');
  return ps;
}

/** Generates programs and checks every property on each; the first failure is shrunk. */
export function verify(o: VerifyOptions): VerifyReport {
  const total = o.runs ?? 100;
  const seed = o.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  // Every program of the run reuses the rule programs loaded once (the caller's session, or one for this run).
  const run: RunOptions = { ...(o.run ?? {}), session: o.run?.session ?? new RuleSession() };
  const checks = { run, ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}) };
  let done = 0;
  let refused = 0;
  let failing = false;
  const prop = fc.property(arbModule(o.passes), (m) => {
    const r = checkProgram(m.text, o.passes, { ...checks, sound: m.family === 'comm' });
    if (!failing) {
      if (r === 'refused') refused++;
      done++;
      o.onProgress?.(done, total);
    }
    if (r !== null && r !== 'refused') {
      failing = true;
      throw new PropertyFailed(r);
    }
  });
  // Rule-file errors (a bad include, an undeclared relation) surface here, before any program.
  for (const pass of o.passes) {
    const rules = passRules(pass, run);
    loadRules(pass.entry, rules.extra, rules.analyze.rulesRoot, [], run.session);
    loadRules(pass.audit, rules.extra, rules.analyze.rulesRoot, [], run.session);
  }
  const details = fc.check(prop, { numRuns: total, seed, endOnFailure: false });
  if (!details.failed) return { ok: true, runs: details.numRuns, refused, seed, properties: propertiesFor(o.passes) };
  const text = details.counterexample?.[0]?.text ?? '';
  const err = details.errorInstance;
  if (!(err instanceof PropertyFailed)) throw err instanceof Error ? err : new Error(String(err));
  return { ok: false, seed, failure: err.failure, counterexample: text, run: done, shrinks: details.numShrinks };
}
