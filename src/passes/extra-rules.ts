import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { relationsUsedUndeclared } from '../datalog/index.js';
import { readRuleFile } from '../datalog/syntax/load.js';
import { DiagnosticError } from '../report/diagnostic.js';
import { loadRules } from './analyze.js';
import { isContractFolder, PASSES, type PassSpec } from './registry.js';
import { RuleSession } from './rule-session.js';

/** A user rule file given with `--rules DIR` and the passes it belongs to. */
export interface ExtraRuleFile {
  path: string;
  /** Entry files of shipped passes it #includes (then it extends those passes only). */
  includesEntries: string[];
  /** Every file it #includes, as written. */
  includes?: string[];
  /** Relations it uses without declaring them (it extends the passes that declare them all). */
  needs: Set<string>;
}

/**
 * The `.dl` files of each `--rules DIR` (or single file), sorted by name. A file that
 * `#include`s a pass's entry file extends only that pass; any other file extends every pass.
 */
export function readExtraRules(paths: readonly string[], passes: readonly PassSpec[]): ExtraRuleFile[] {
  const out: ExtraRuleFile[] = [];
  for (const p of paths) {
    // A contract folder's rule files are that contract's (registry contractsWith), not extensions.
    if (isContractFolder(p)) continue;
    let files: string[];
    try {
      files = statSync(p).isDirectory()
        ? readdirSync(p)
            .filter((n) => n.endsWith('.dl'))
            .sort()
            .map((n) => join(p, n))
        : [p];
    } catch {
      throw new DiagnosticError([
        {
          severity: 'error',
          code: 'unreadable-file',
          path: p,
          message: `cannot read the rule directory or file ${p}; check the --rules path.`,
        },
      ]);
    }
    for (const f of files) {
      const text = readRuleFile(resolve(f));
      if (typeof text !== 'string') {
        if (text !== undefined && 'tooLarge' in text) {
          throw new DiagnosticError([
            {
              severity: 'error',
              code: 'file-too-large',
              path: f,
              message: `the rule file ${f} holds more than the ${text.limit} bytes ptolog reads as a rule file.`,
            },
          ]);
        }
        throw new DiagnosticError([{ severity: 'error', code: 'unreadable-file', path: f, message: `cannot read the rule file ${f}.` }]);
      }
      const written = [...text.matchAll(/^\s*#include\s+(?:"([^"]+)"|<([^>]+)>)/gm)].map((m) => (m[1] ?? m[2])!);
      const includes = written.map((w) => basename(w));
      const entries = passes.flatMap((s) => [s.entry, s.audit]).filter((e) => includes.includes(basename(e)));
      out.push({
        path: f,
        includesEntries: entries,
        includes: written,
        needs: entries.length > 0 ? new Set() : relationsUsedUndeclared(f, text),
      });
    }
  }
  return out;
}

/**
 * The shipped passes whose rules declare every relation a file without includes uses (empty
 * for a file with includes, or one that needs nothing or something no pass declares).
 */
export function passesDeclaring(
  x: ExtraRuleFile,
  passes: readonly PassSpec[] = PASSES,
  session: RuleSession = new RuleSession(),
): PassSpec[] {
  if (x.includesEntries.length > 0 || (x.includes?.length ?? 0) > 0 || x.needs.size === 0) return [];
  return passes.filter((p) => {
    const program = loadRules(p.audit, [], undefined, [], session).program;
    return [...x.needs].every((n) => program.relation(n) !== undefined);
  });
}

/**
 * The extra files that extend pass `spec`: those that #include its rule files, and those
 * without such an include whose relations the pass's rules all declare (a file adding
 * `wait_op("pld.system.ttest").` extends the pass that has `wait_op`). A file that no pass can
 * take extends every pass, so its undeclared relations are reported.
 */
export function extrasFor(
  spec: PassSpec,
  extras: readonly ExtraRuleFile[],
  passes: readonly PassSpec[] = PASSES,
  rulesRoot?: string,
  session: RuleSession = new RuleSession(),
): string[] {
  const declares = (p: PassSpec, names: Set<string>): boolean => {
    const program = loadRules(p.audit, [], rulesRoot, [], session).program;
    return [...names].every((n) => program.relation(n) !== undefined);
  };
  return extras
    .filter((x) => {
      if (x.includesEntries.length > 0) return x.includesEntries.includes(spec.entry) || x.includesEntries.includes(spec.audit);
      if (declares(spec, x.needs)) return true;
      return !passes.some((p) => declares(p, x.needs));
    })
    .map((x) => x.path);
}
