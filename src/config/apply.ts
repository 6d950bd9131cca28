import { relative } from 'node:path';
import picomatch from 'picomatch';
import type { Diagnostic } from '../report/diagnostic.js';
import type { PtologConfig, SeverityOverride } from './config.js';

/** The codes `per-file-ignores` drops in `file` (a path; globs are relative to the config's root). */
export function ignoredCodes(config: PtologConfig, file: string): Set<string> {
  const rel = relative(config.root, file).replaceAll('\\', '/');
  const out = new Set<string>();
  for (const [glob, codes] of Object.entries(config.perFileIgnores)) {
    if (picomatch(glob, { dot: true })(rel) || picomatch(glob, { dot: true, basename: !glob.includes('/') })(rel)) {
      for (const c of codes) out.add(c);
    }
  }
  return out;
}

/**
 * Applies a configuration to one file's diagnostics: drops the codes its `per-file-ignores`
 * list for the file and those with severity `off`, and gives the others their overridden
 * severity. Failures that stop a run (`DiagnosticError`s) are not passed here.
 */
export function applyConfig(diagnostics: readonly Diagnostic[], config: PtologConfig, file: string): Diagnostic[] {
  return applyOverrides(diagnostics, config.severity, ignoredCodes(config, file));
}

/** Drops the `ignored` codes and those whose override is `off`; gives the others their overridden severity. */
export function applyOverrides(
  diagnostics: readonly Diagnostic[],
  severity: Readonly<Record<string, SeverityOverride>>,
  ignored: ReadonlySet<string>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (ignored.has(d.code)) continue;
    const s = severity[d.code];
    if (s === 'off') continue;
    out.push(s ? { ...d, severity: s } : d);
  }
  return out;
}
