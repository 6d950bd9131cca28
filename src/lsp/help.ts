import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ruleFilesUnder, rulesDir } from '../passes/registry.js';

/**
 * For each finding code the shipped rules derive, a link to the first rule deriving it
 * (`file:///.../rules/insert_comm_fence/comm_contract.dl#L97`): the rule and its comments are the code's help.
 */
export function ruleHelpLinks(dir: string = rulesDir()): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of ruleFilesUnder(dir)) {
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((l, i) => {
      const m = /^\s*finding\("([^"]+)"/.exec(l);
      if (m && !out.has(m[1]!)) out.set(m[1]!, `${pathToFileURL(path).href}#L${i + 1}`);
    });
  }
  return out;
}
