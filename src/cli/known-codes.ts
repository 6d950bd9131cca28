import { resolve } from 'node:path';
import { catalogForRules } from '../passes/catalog.js';
import { knownCodes } from '../passes/codes.js';
import { ruleFilesUnder, rulesDir } from '../passes/registry.js';

/**
 * Every code a run can report: the built-in codes, the codes of every `diagnostics.toml` the run
 * loads (the rules root's — shipped or `--rules-root` — and each `--rules` / configured rules
 * folder's), and the `finding("code", ...)` codes of their rule files. Suppressions and the
 * configuration name codes from this set; another name is a typo.
 */
export function codesKnownTo(rulesRoot: string | undefined, rules: readonly string[], extraRuleFiles: readonly string[] = []): Set<string> {
  const root = rulesRoot === undefined ? undefined : resolve(rulesRoot);
  const out = knownCodes([...(root !== undefined ? safe(() => ruleFilesUnder(root), []) : []), ...extraRuleFiles]);
  for (const code of safe(() => [...catalogForRules(root ?? rulesDir(), rules).keys()], [])) out.add(code);
  return out;
}

/** A catalog or rules folder that cannot be read is reported where the rules are loaded, not here. */
function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
