/**
 * The language server's settings and finding filter from the workspace's configuration, as the
 * CLI reads it: `[tool.ptolog]` in `pyproject.toml` (or `ptolog.toml`) found from each document
 * upwards, then its suppression comments (`# ptolog: ignore[code]`, `ignore-file[code]`).
 */
import { dirname, resolve } from 'node:path';
import { applyConfig } from '../config/apply.js';
import { type ConfigReader, loadConfig, type PtologConfig, packageRoots } from '../config/config.js';
import { parseDefines } from '../frontend/index.js';
import { type PassSpec, passByName } from '../passes/registry.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { applySuppressions } from '../suppress/suppress.js';
import type { FindingFilter, LspSettings, SettingsFor } from './settings.js';

/**
 * The configuration governing `path`: undefined when there is none; its errors when one does
 * not load (the command line's settings apply, and `configuredFilter` reports the errors).
 */
function configOf(path: string, read: ConfigReader): PtologConfig | undefined | Diagnostic[] {
  try {
    return loadConfig(dirname(resolve(path)), read);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics;
    throw e;
  }
}

/**
 * Settings per document: the command line's, completed by the document's configuration —
 * its `passes` when no `--pass` was given, its `rules` after `--rules`, its `defines` under `-D`;
 * imported modules are searched for as the CLI does (the document's package roots, then the
 * configuration's `import-roots`, then the command line's).
 */
export function configuredSettings(base: LspSettings, passesGiven: boolean, read: ConfigReader): SettingsFor {
  return (path) => {
    const cfg = configOf(path, read);
    const roots = (c: PtologConfig | undefined): string[] => [
      ...new Set([...packageRoots(resolve(path), read), ...(c?.importRoots ?? []), ...(base.importRoots ?? [])]),
    ];
    if (!cfg || Array.isArray(cfg)) return { ...base, importRoots: roots(undefined) };
    const passes =
      !passesGiven && cfg.passes ? cfg.passes.map((n) => passByName(n)).filter((p): p is PassSpec => p !== undefined) : base.passes;
    const defines = new Map([...parseDefines(cfg.defines), ...base.defines]);
    const stage = base.stage ?? cfg.stage;
    return {
      passes,
      ruleDirs: [...base.ruleDirs, ...cfg.rules.map((r) => resolve(cfg.root, r))],
      defines,
      ...(stage !== undefined ? { stage } : {}),
      importRoots: roots(cfg),
    };
  };
}

/** Findings as the CLI reports them: configured severities, per-file ignores, then suppression comments. */
export function configuredFilter(read: ConfigReader): FindingFilter {
  return (findings, text, path) => {
    const cfg = configOf(path, read);
    if (Array.isArray(cfg)) return [...cfg, ...applySuppressions(findings, new SourceText(path, text)).diagnostics];
    const graded = cfg ? applyConfig(findings, cfg, path) : findings;
    return applySuppressions(graded, new SourceText(path, text)).diagnostics;
  };
}
