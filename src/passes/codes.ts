import { readFileSync } from 'node:fs';
import { ruleFilesUnder, rulesDir } from './registry.js';

/** Codes that TypeScript stages report (the rules' finding codes are read from the rule files). */
export const BUILTIN_CODES: readonly string[] = [
  'syntax-error', 'unsupported-construct', 'tab-indent', 'inconsistent-dedent', 'nesting-too-deep',
  'no-program', 'not-python', 'unfollowed-import', 'patch-conflict', 'unreadable-file', 'write-failed',
  'bad-edit', 'bad-define', 'unknown-define', 'inexact-number', 'config', 'unknown-pass', 'unknown-suppression-code', 'unused-suppression',
];

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
