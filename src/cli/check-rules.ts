// `ptolog check-rules`: which contracts a rule file extends, and checking it with them.
import { resolve } from 'node:path';
import { type RuleProgram, relationsRead } from '../datalog/index.js';
import { loadRules } from '../passes/analyze.js';
import type { ExtraRuleFile } from '../passes/extra-rules.js';
import { type PassSpec, rulesDir } from '../passes/registry.js';
import type { RuleSession } from '../passes/rule-session.js';

/** How check-rules checks the given files: as one program of their own, or with the contracts they extend. */
export type CheckPlan =
  | {
      kind: 'standalone';
      /** Set when the files use a contract's relations but no contract reads what they derive. */
      unread?: string[];
    }
  | {
      kind: 'extension';
      /** The contracts (by manifest name) the files are loaded into, as `--rules` loads them. */
      contracts: PassSpec[];
      /** Why: `it includes their rules` or `its rules read wait_op`. */
      why: string;
    };

/** The relations whose facts or rule heads the clauses of `files` (as loaded in `program`) derive. */
export function derivedBy(program: RuleProgram, files: readonly string[]): Set<string> {
  const paths = new Set(files.map((f) => resolve(f)));
  const out = new Set<string>();
  for (const c of program.clauses) if (paths.has(resolve(c.clause.loc.source.path))) out.add(c.clause.head.rel);
  return out;
}

function names(ps: readonly PassSpec[]): string {
  const n = ps.map((p) => p.name);
  return n.length <= 1 ? (n[0] ?? '') : `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}`;
}

/**
 * Which contracts `files` extend: those whose rule files they #include (`"..."` or
 * `<ptolog/...>`); else, for files using relations they do not declare, the contracts that
 * declare them all and whose rules read a relation the files derive; else none (a program of
 * its own, with `unread` what it derives when it uses a contract's relations).
 */
export function checkPlan(
  files: readonly string[],
  extras: readonly ExtraRuleFile[],
  passes: readonly PassSpec[],
  includeDirs: readonly string[],
  session: RuleSession,
): CheckPlan {
  const program = (p: PassSpec): RuleProgram => loadRules(p.audit, [], undefined, includeDirs, session).program;
  // A contract's own rule file is checked as the program it is.
  const own = new Set(passes.flatMap((p) => [p.entry, p.audit].map((f) => resolve(rulesDir(), f))));
  if (files.some((f) => own.has(resolve(f)))) return { kind: 'standalone' };
  const included = passes.filter((p) => extras.some((x) => x.includesEntries.includes(p.entry) || x.includesEntries.includes(p.audit)));
  if (included.length > 0)
    return { kind: 'extension', contracts: included, why: `it includes ${included.length === 1 ? 'its' : 'their'} rules` };
  const needs = new Set(extras.flatMap((x) => [...x.needs]));
  if (needs.size === 0) return { kind: 'standalone' };
  const hosts = passes.filter((p) => {
    const prog = program(p);
    return [...needs].every((n) => prog.relation(n) !== undefined);
  });
  if (hosts.length === 0) return { kind: 'standalone' };
  // What the files derive, as a host's program with them loaded tells it.
  const derived = derivedBy(loadRules(hosts[0]!.audit, files, undefined, includeDirs, session).program, files);
  const readers = hosts.filter((p) => {
    const read = relationsRead(program(p));
    return [...derived].some((r) => read.has(r));
  });
  if (readers.length === 0) return { kind: 'standalone', unread: [...derived].sort() };
  const read = [...derived].filter((r) => readers.some((p) => relationsRead(program(p)).has(r))).sort();
  return { kind: 'extension', contracts: readers, why: `${readers.length === 1 ? 'its' : 'their'} rules read ${read.join(', ')}` };
}

/**
 * The ok line of files checked as an extension with `plan`'s contracts (`programs`, one per
 * contract, each with the files loaded): the files' own facts and rules, and the warnings.
 */
export function extensionSummary(
  plan: Extract<CheckPlan, { kind: 'extension' }>,
  files: readonly string[],
  programs: readonly RuleProgram[],
  warnings: number,
): string {
  const paths = new Set(files.map((f) => resolve(f)));
  const own = programs[0]!.clauses.filter((c) => paths.has(resolve(c.clause.loc.source.path)));
  const facts = own.filter((c) => c.clause.isFact).length;
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  return `ok: checked as an extension of ${names(plan.contracts)} (${plan.why}; as --rules loads it): ${count(facts, 'fact')}, ${count(own.length - facts, 'rule')}, ${count(warnings, 'warning')}\n`;
}
