// The rule session: rule programs are reused within the session that loaded them, never across
// sessions, and rule paths are shown relative to the session's directory (the library reads no cwd).
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PREBUILT_PLANS, PrebuiltPlans, providePrebuiltPlans } from '../../src/datalog/index.js';
import { loadRules } from '../../src/passes/analyze.js';
import { rulesDir } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';

const ENTRY = 'cache_policy/cache_policy.dl';
const sourcesOf = (s: RuleSession): string[] => [
  ...new Set(loadRules(ENTRY, [], undefined, [], s).program.clauses.map((c) => c.clause.head.loc.source.path)),
];

describe('RuleSession', () => {
  test('a session loads a program once; another session loads its own', () => {
    const a = new RuleSession();
    const b = new RuleSession();
    const first = loadRules(ENTRY, [], undefined, [], a).program;
    expect(loadRules(ENTRY, [], undefined, [], a).program).toBe(first);
    expect(loadRules(ENTRY, [], undefined, [], b).program).not.toBe(first);
  });

  test('forget makes the next load read the files again', () => {
    const a = new RuleSession();
    const first = loadRules(ENTRY, [], undefined, [], a).program;
    a.forget();
    expect(loadRules(ENTRY, [], undefined, [], a).program).not.toBe(first);
  });

  test('forget keeps the prebuilt plan functions the session was given (they are found by their code)', () => {
    const a = new RuleSession();
    const plans = new PrebuiltPlans(() => []);
    providePrebuiltPlans(a.loads.programs, plans);
    loadRules(ENTRY, [], undefined, [], a);
    a.forget();
    expect(a.loads.programs.get(PREBUILT_PLANS)).toBe(plans);
  });

  test('rule paths are shown relative to the session directory, absolute without one', () => {
    const root = rulesDir();
    expect(sourcesOf(new RuleSession())).toContain(join(root, ENTRY));
    const parent = dirname(root);
    expect(sourcesOf(new RuleSession(parent))).toContain(join('rules', ENTRY));
  });
});
