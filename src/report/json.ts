import type { Diagnostic } from './diagnostic.js';

/** The JSON shape of one diagnostic (stable: tools may consume it). */
export interface DiagnosticJson {
  severity: string;
  code: string;
  message: string;
  file: string | null;
  line: number | null;
  column: number | null;
  endLine: number | null;
  endColumn: number | null;
  /** UTF-8 byte offsets of the location in the file, end exclusive. */
  startOffset: number | null;
  endOffset: number | null;
  fix?: string;
  /** The fix as edits: replace the bytes [startOffset, endOffset) by text. */
  fixEdits?: { startOffset: number; endOffset: number; text: string }[];
  notes?: string[];
  /** Other places the finding involves (the rules' `finding_related`), positions as above. */
  related?: { message: string; file: string; line: number; column: number; endLine: number; endColumn: number }[];
}

/** Converts a diagnostic to its JSON shape (positions 1-based, offsets in bytes from 0; ends exclusive). */
export function diagnosticToJson(d: Diagnostic): DiagnosticJson {
  const loc = d.location;
  const s = loc?.source.position(loc.start);
  const e = loc?.source.position(loc.end);
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    file: loc?.source.path ?? d.path ?? null,
    line: s?.line ?? null,
    column: s?.col ?? null,
    endLine: e?.line ?? null,
    endColumn: e?.col ?? null,
    startOffset: loc ? loc.source.byteOffset(loc.start) : null,
    endOffset: loc ? loc.source.byteOffset(loc.end) : null,
    ...(d.fix ? { fix: d.fix } : {}),
    ...(d.fixEdits && loc
      ? {
          fixEdits: d.fixEdits.map((x) => ({
            startOffset: loc.source.byteOffset(x.start),
            endOffset: loc.source.byteOffset(x.end),
            text: x.text,
          })),
        }
      : {}),
    ...(d.notes && d.notes.length > 0 ? { notes: d.notes } : {}),
    ...(d.related && d.related.length > 0
      ? {
          related: d.related.map((r) => {
            const a = r.location.source.position(r.location.start);
            const b = r.location.source.position(r.location.end);
            return { message: r.message, file: r.location.source.path, line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
          }),
        }
      : {}),
  };
}

/** Renders diagnostics as a JSON document `{ "diagnostics": [...] }`. */
export function renderJson(ds: readonly Diagnostic[]): string {
  return JSON.stringify({ diagnostics: ds.map(diagnosticToJson) }, null, 2);
}
