import type { SourceText } from './source.js';

/** How bad a diagnostic is: an error stops the run (exit 2) or is a finding (exit 1). */
export type Severity = 'error' | 'warning' | 'note';

/** A range of characters [start, end) in one source text. */
export interface Location {
  source: SourceText;
  start: number;
  end: number;
}

/** One text edit of a fix: replace the characters [start, end) of the source by `text`. */
export interface FixEdit {
  start: number;
  end: number;
  text: string;
}

/** Extra location attached to a diagnostic (e.g. the other end of a cycle). */
export interface RelatedLocation {
  location: Location;
  message: string;
}

/**
 * The one diagnostic model of ptolog: every user-facing failure, finding, warning and note,
 * whatever stage produced it, is one of these. Renderers (text, JSON, SARIF) read only this.
 */
export interface Diagnostic {
  severity: Severity;
  /** Stable identifier: `syntax-error`, `undeclared-relation`, `missing-marker`, ... */
  code: string;
  /** One sentence that says what is wrong (and, where possible, how to fix it). */
  message: string;
  /** Where; absent only when there is no text to point into (e.g. an unreadable file). */
  location?: Location;
  /** File path when there is no location (unreadable file, missing directory). */
  path?: string;
  /** A suggested fix, printed after the code frame. */
  fix?: string;
  /** The fix as text edits of the location's source: replace [start, end) (character offsets) by text. */
  fixEdits?: FixEdit[];
  /** Further lines of explanation. */
  notes?: string[];
  related?: RelatedLocation[];
}

/** Thrown by any stage when it cannot go on; carries located diagnostics for the user. */
export class DiagnosticError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'DiagnosticError';
  }
}

/** Builds an error diagnostic located at [start, end) of `source`. */
export function errorAt(
  source: SourceText,
  start: number,
  end: number,
  code: string,
  message: string,
  extra: Partial<Diagnostic> = {},
): Diagnostic {
  return { severity: 'error', code, message, location: { source, start, end }, ...extra };
}

/** Throws a DiagnosticError holding one located error. */
export function failAt(
  source: SourceText,
  start: number,
  end: number,
  code: string,
  message: string,
  extra: Partial<Diagnostic> = {},
): never {
  throw new DiagnosticError([errorAt(source, start, end, code, message, extra)]);
}
