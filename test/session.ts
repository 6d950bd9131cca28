/**
 * The rule session test files share: a program is compiled once per run of the suite (the first
 * file to load it writes it to the run's cache, test/setup/rule-cache-dir.ts; the others read
 * it back as the CLI reads its compiled rules) and once loaded is reused by every later file of
 * the same worker. A test about sessions themselves makes its own.
 */
import { inject } from 'vitest';
import type { RuleCache } from '../src/datalog/index.js';
import { diskStore } from '../src/datalog/plan/disk-store.js';
import { RuleSession } from '../src/passes/rule-session.js';

/** The run's compiled-rules cache (none when the suite runs without its global setup). */
function runCache(): RuleCache | undefined {
  const c = inject('ruleCache');
  if (c === undefined) return undefined;
  const store = diskStore(c.dir);
  return { version: c.version, stores: [store], write: store, memory: new Map() };
}

/** The shared rule session (no working directory: rule paths shown as loaded). */
export const session = new RuleSession(undefined, runCache());
