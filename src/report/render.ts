import type { Diagnostic } from './diagnostic.js';
import { renderJson } from './json.js';
import { type CodeHelp, renderSarif } from './sarif.js';
import { renderDiagnostics } from './text.js';

export type FindingFormat = 'text' | 'json' | 'sarif';

/** The one-line count of a run's diagnostics, per severity (read errors included by the caller). */
export function findingsSummary(ds: readonly Diagnostic[]): string {
  const count = (s: Diagnostic['severity']): number => ds.filter((d) => d.severity === s).length;
  return `${ds.length} finding${ds.length === 1 ? '' : 's'}: ${count('error')} error(s), ${count('warning')} warning(s), ${count('note')} note(s)`;
}

/**
 * Renders findings in the chosen format; text ends with a one-line summary that counts the
 * findings and `readErrors` (what could not be read) alike. `readErrors` are in the JSON list
 * with the findings and, in SARIF, results as well as the invocation's tool execution
 * notifications; in text they are not rendered here (they go to stderr). `describe` (the
 * diagnostic catalog) fills SARIF's rule descriptions. `summary: false` (`-q`) leaves out the
 * text summary.
 */
export function renderFindings(
  ds: readonly Diagnostic[],
  format: FindingFormat,
  readErrors: readonly Diagnostic[] = [],
  describe?: (code: string) => CodeHelp | undefined,
  opts: { summary?: boolean } = {},
): string {
  if (format === 'json') return renderJson([...readErrors, ...ds]);
  if (format === 'sarif') return renderSarif([...readErrors, ...ds], undefined, readErrors, describe);
  if (ds.length === 0 && readErrors.length === 0) return '';
  const parts = ds.length > 0 ? [renderDiagnostics(ds)] : [];
  if (opts.summary !== false) parts.push(findingsSummary([...readErrors, ...ds]));
  return parts.join('\n\n');
}
