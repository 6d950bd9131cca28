import type { Diagnostic } from './diagnostic.js';
import { renderDiagnostics } from './text.js';
import { renderJson } from './json.js';
import { renderSarif, type CodeHelp } from './sarif.js';

export type FindingFormat = 'text' | 'json' | 'sarif';

/**
 * Renders findings in the chosen format; text ends with a one-line summary. `readErrors` (what
 * could not be read) are in the JSON list with the findings and, in SARIF, the invocation's
 * tool execution notifications; in text they are not rendered here (they go to stderr).
 * `describe` (the diagnostic catalog) fills SARIF's rule descriptions.
 */
export function renderFindings(
  ds: readonly Diagnostic[],
  format: FindingFormat,
  readErrors: readonly Diagnostic[] = [],
  describe?: (code: string) => CodeHelp | undefined,
): string {
  if (format === 'json') return renderJson([...readErrors, ...ds]);
  if (format === 'sarif') return renderSarif(ds, undefined, readErrors, describe);
  if (ds.length === 0) return '';
  const count = (s: Diagnostic['severity']): number => ds.filter((d) => d.severity === s).length;
  const summary = `${ds.length} finding${ds.length === 1 ? '' : 's'}: ${count('error')} error(s), ${count('warning')} warning(s), ${count('note')} note(s)`;
  return `${renderDiagnostics(ds)}\n\n${summary}`;
}
