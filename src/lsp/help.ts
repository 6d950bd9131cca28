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

/** A rule in a rule file: its path, 1-based line and a file URI to it. */
export interface RulePlace {
  path: string;
  line: number;
  href: string;
}

/** The string literals of rule files with the 1-based line of the clause each is in. */
export interface RuleIndex {
  literals: { text: string; place: RulePlace }[];
  /** The first `finding("code", ...)` clause of each code. */
  firstFinding: Map<string, RulePlace>;
}

/** The line (0-based) where the clause holding line `i` starts: after the previous clause's final `.`, a blank or a comment line. */
function clauseStart(lines: readonly string[], i: number): number {
  let k = i;
  while (k > 0) {
    const prev = lines[k - 1]!.replace(/\/\/.*$/, '').trimEnd();
    if (prev === '' || prev.endsWith('.') || /^\s*(\.|#)/.test(lines[k - 1]!)) break;
    k--;
  }
  return k;
}

/** Indexes the rule files `paths` (unreadable ones skipped). */
export function indexRules(paths: readonly string[]): RuleIndex {
  const literals: RuleIndex['literals'] = [];
  const firstFinding = new Map<string, RulePlace>();
  for (const path of paths) {
    let lines: string[];
    try {
      lines = readFileSync(path, 'utf8').split('\n');
    } catch {
      continue;
    }
    const href = pathToFileURL(path).href;
    lines.forEach((l, i) => {
      if (/^\s*\/\//.test(l)) return;
      const start = clauseStart(lines, i);
      const place = { path, line: start + 1, href: `${href}#L${start + 1}` };
      const f = /^\s*finding\("([^"]+)"/.exec(l);
      if (f && !firstFinding.has(f[1]!)) firstFinding.set(f[1]!, { path, line: i + 1, href: `${href}#L${i + 1}` });
      for (const m of l.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
        const text = m[1]!.replace(/\\(.)/g, '$1');
        if (text.length >= 8) literals.push({ text, place });
      }
    });
  }
  return { literals, firstFinding };
}

/**
 * The rule that derived a finding of `code` with `message`: the clause holding the longest
 * string literal of the rules that the message contains (the message is written there, whole or
 * in parts), else the first rule deriving the code.
 */
export function ruleOfFinding(index: RuleIndex, code: string, message: string): RulePlace | undefined {
  let best: { text: string; place: RulePlace } | undefined;
  for (const x of index.literals) {
    if (x.text.length > (best?.text.length ?? 0) && message.includes(x.text)) best = x;
  }
  return best?.place ?? index.firstFinding.get(code);
}
