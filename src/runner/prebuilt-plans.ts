// The build's prebuilt join-plan functions (dist/compiled-rules/plans.js, written by
// scripts/prebuilt-plans.mjs): run as a V8 script with the code cache the build wrote beside it
// (`plans.js.cache`, the format of code-cache-file.ts: a header, the SHA-1 of the script's bytes and
// of the data), so that a run neither parses nor compiles them. Read only when a rule program
// compiles its first plan; a file missing or unreadable is an empty table, a cache missing or of
// another text is not used (the script is compiled as without one).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { PrebuiltPlans, providePrebuiltPlans } from '../datalog/index.js';
import type { RuleSession } from '../passes/rule-session.js';
import { cachedDataOf } from './code-cache-file.js';
import type { CacheSpec } from './rule-cache.js';

/** The file of the prebuilt plans in the directory of the compiled shipped rules. */
export const PLANS_FILE = 'plans.js';

/** The value the script `file` evaluates to, compiled with its code cache when that is good (throws when it cannot be read or run). */
export function runCachedScript(file: string): unknown {
  const bytes = readFileSync(file);
  const cachedData = cachedDataOf(file, bytes);
  const script = new vm.Script(bytes.toString('utf8'), { filename: file, ...(cachedData ? { cachedData } : {}) });
  return script.runInThisContext();
}

/** The prebuilt plans of the compiled shipped rules of `spec` (none without them: --no-cache, a run from the sources). */
export function prebuiltPlansOf(spec: CacheSpec | undefined): PrebuiltPlans | undefined {
  const dir = spec?.prebuilt;
  return dir === undefined ? undefined : new PrebuiltPlans(() => runCachedScript(join(dir, PLANS_FILE)));
}

/** `session`, its programs given the prebuilt plans of the compiled rules of `spec` when there are any. */
export function withPrebuiltPlans(session: RuleSession, spec: CacheSpec | undefined): RuleSession {
  const plans = prebuiltPlansOf(spec);
  if (plans) providePrebuiltPlans(session.loads.programs, plans);
  return session;
}
