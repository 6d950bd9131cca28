import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DiagnosticError } from '../report/diagnostic.js';
import type { PassSpec } from './registry.js';

/** A user rule file given with `--rules DIR` and the passes it belongs to. */
export interface ExtraRuleFile {
  path: string;
  /** Entry files of shipped passes it #includes; empty means it applies to every pass. */
  includesEntries: string[];
}

/**
 * The `.dl` files of each `--rules DIR` (or single file), sorted by name. A file that
 * `#include`s a pass's entry file extends only that pass; any other file extends every pass.
 */
export function readExtraRules(paths: readonly string[], passes: readonly PassSpec[]): ExtraRuleFile[] {
  const out: ExtraRuleFile[] = [];
  for (const p of paths) {
    let files: string[];
    try {
      files = statSync(p).isDirectory()
        ? readdirSync(p).filter((n) => n.endsWith('.dl')).sort().map((n) => join(p, n))
        : [p];
    } catch {
      throw new DiagnosticError([
        { severity: 'error', code: 'unreadable-file', path: p, message: `cannot read the rule directory or file ${p}; check the --rules path.` },
      ]);
    }
    for (const f of files) {
      let text = '';
      try {
        text = readFileSync(f, 'utf8');
      } catch {
        throw new DiagnosticError([{ severity: 'error', code: 'unreadable-file', path: f, message: `cannot read the rule file ${f}.` }]);
      }
      const includes = [...text.matchAll(/^\s*#include\s+"([^"]+)"/gm)].map((m) => basename(m[1]!));
      const entries = passes.flatMap((s) => [s.entry, s.audit]).filter((e) => includes.includes(e));
      out.push({ path: f, includesEntries: entries });
    }
  }
  return out;
}

/** The extra files that extend pass `spec`. */
export function extrasFor(spec: PassSpec, extras: readonly ExtraRuleFile[]): string[] {
  return extras
    .filter((x) => x.includesEntries.length === 0 || x.includesEntries.includes(spec.entry) || x.includesEntries.includes(spec.audit))
    .map((x) => x.path);
}
