import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rulesDir } from '../passes/registry.js';

/**
 * For each finding code the shipped rules derive, a link to the first rule deriving it
 * (`file:///.../rules/insert_comm_fence/comm_contract.dl#L97`): the rule and its comments are the code's help.
 */
export function ruleHelpLinks(dir: string = rulesDir()): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.dl')).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    lines.forEach((l, i) => {
      const m = /^\s*finding\("([^"]+)"/.exec(l);
      if (m && !out.has(m[1]!)) out.set(m[1]!, `${pathToFileURL(join(dir, name)).href}#L${i + 1}`);
    });
  }
  return out;
}
