import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type DiagnosticRelatedInformation, DiagnosticSeverity, type Diagnostic as LspDiagnostic, type Range } from 'vscode-languageserver';
import type { Diagnostic, Location, Severity } from '../report/diagnostic.js';
import type { PassFinding } from './analysis.js';

/** What a published diagnostic carries for its code actions. */
export interface FindingData {
  pass: string;
  /** Offset of the finding's node in the text it was computed on. */
  start: number;
  /** What the finding's fix inserts (the CLI's `fix:` line without its `insert after it: `), when it has edits. */
  fix?: string;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  note: DiagnosticSeverity.Information,
};

/** The LSP range of a location (0-based lines; columns in UTF-16 units, as JavaScript strings count). */
export function rangeOf(loc: Location): Range {
  const s = loc.source.position(loc.start);
  const e = loc.source.position(loc.end);
  return { start: { line: s.line - 1, character: s.col - 1 }, end: { line: e.line - 1, character: e.col - 1 } };
}

/** The file URI of a path as the analysis names it (relative paths resolved against `base`). */
export function uriOfPath(path: string, base: string): string {
  return pathToFileURL(isAbsolute(path) ? path : resolve(base, path)).href;
}

const TOP: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * A finding as an LSP diagnostic of document `docPath`: code, severity, relatedInformation, a
 * codeDescription link to the rule's help, and the CLI's `fix:` and `note:` lines in the message. A diagnostic located in another file (a rule file
 * given with --rules) is shown at the top of the document, with its own place as related information.
 */
export function toLspDiagnostic(
  f: PassFinding,
  docPath: string,
  docUri: string,
  base: string,
  help: ReadonlyMap<string, string>,
): LspDiagnostic {
  const d: Diagnostic = f.diagnostic;
  const here = d.location !== undefined && d.location.source.path === docPath;
  const related: DiagnosticRelatedInformation[] = (d.related ?? []).map((r) => ({
    location: { uri: r.location.source.path === docPath ? docUri : uriOfPath(r.location.source.path, base), range: rangeOf(r.location) },
    message: r.message,
  }));
  let message = d.message;
  if (!here && d.location) {
    const p = d.location.source.position(d.location.start);
    message = `${d.location.source.path}:${p.line}:${p.col}: ${d.message}`;
    related.unshift({ location: { uri: uriOfPath(d.location.source.path, base), range: rangeOf(d.location) }, message: d.message });
  } else if (!d.location && d.path && d.path !== docPath) {
    message = `${d.path}: ${d.message}`;
  }
  if (d.fix) message += `\nfix: ${d.fix}`;
  for (const n of d.notes ?? []) message += `\nnote: ${n}`;
  const href = help.get(d.code);
  const data: FindingData = { pass: f.pass, start: here ? d.location!.start : -1 };
  if (here && d.fixEdits && d.fixEdits.length > 0 && d.fix) data.fix = d.fix.replace(/^insert after it: /, '');
  return {
    range: here ? rangeOf(d.location!) : TOP,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'ptolog',
    message,
    ...(href ? { codeDescription: { href } } : {}),
    ...(related.length > 0 ? { relatedInformation: related } : {}),
    data,
  };
}
