import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_FILE, parseCatalog } from './catalog.js';
import { ruleFilesUnder, rulesDir } from './registry.js';

/**
 * Codes that TypeScript stages report: those ptolog's own catalog (`rules/diagnostics.toml`)
 * declares, which is where they are written once (the rules' finding codes are read from the
 * rule files).
 */
export const BUILTIN_CODES: readonly string[] = Object.freeze(ownCodes());

function ownCodes(): string[] {
  const path = join(rulesDir(), CATALOG_FILE);
  return parseCatalog(path, readFileSync(path, 'utf8'), 'ptolog').map((e) => e.code);
}

/**
 * Every code ptolog can report on a kernel: the built-in ones and the `finding("code", ...)`
 * codes of the shipped rule files and of `extraRuleFiles`.
 */
export function knownCodes(extraRuleFiles: readonly string[] = []): Set<string> {
  const out = new Set(BUILTIN_CODES);
  const dir = rulesDir();
  const files = [...ruleFilesUnder(dir), ...extraRuleFiles];
  for (const f of files) {
    let text = '';
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/\bfinding\(\s*"([^"]+)"/g)) out.add(m[1]!);
  }
  return out;
}
