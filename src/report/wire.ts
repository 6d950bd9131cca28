/**
 * Diagnostics as plain data (for worker threads, caches, editor servers): locations become
 * path + offsets, and the texts they point into are carried once per path.
 */
import type { Diagnostic, Location, Severity } from './diagnostic.js';
import { SourceText } from './source.js';

/** A location as plain data. */
export interface WireLocation {
  path: string;
  start: number;
  end: number;
}

/** A diagnostic as plain data (structured-clone and JSON safe). */
export interface WireDiagnostic {
  severity: Severity;
  code: string;
  message: string;
  location?: WireLocation;
  path?: string;
  fix?: string;
  fixEdits?: { start: number; end: number; text: string }[];
  notes?: string[];
  related?: { location: WireLocation; message: string }[];
}

/** Diagnostics and the texts their locations point into. */
export interface WireBundle {
  diagnostics: WireDiagnostic[];
  sources: Record<string, string>;
}

/** Converts diagnostics to plain data. */
export function toWire(ds: readonly Diagnostic[]): WireBundle {
  const sources: Record<string, string> = {};
  const loc = (l: Location): WireLocation => {
    sources[l.source.path] = l.source.text;
    return { path: l.source.path, start: l.start, end: l.end };
  };
  const diagnostics = ds.map((d): WireDiagnostic => {
    const w: WireDiagnostic = { severity: d.severity, code: d.code, message: d.message };
    if (d.location) w.location = loc(d.location);
    if (d.path !== undefined) w.path = d.path;
    if (d.fix !== undefined) w.fix = d.fix;
    if (d.fixEdits) w.fixEdits = d.fixEdits;
    if (d.notes) w.notes = d.notes;
    if (d.related) w.related = d.related.map((r) => ({ location: loc(r.location), message: r.message }));
    return w;
  });
  return { diagnostics, sources };
}

/** Converts plain data back to diagnostics (one SourceText per path, shared by its locations). */
export function fromWire(b: WireBundle): Diagnostic[] {
  const texts = new Map<string, SourceText>();
  const source = (p: string): SourceText => {
    let s = texts.get(p);
    if (!s) texts.set(p, (s = new SourceText(p, b.sources[p] ?? '')));
    return s;
  };
  const loc = (l: WireLocation): Location => ({ source: source(l.path), start: l.start, end: l.end });
  return b.diagnostics.map((w) => {
    const d: Diagnostic = { severity: w.severity, code: w.code, message: w.message };
    if (w.location) d.location = loc(w.location);
    if (w.path !== undefined) d.path = w.path;
    if (w.fix !== undefined) d.fix = w.fix;
    if (w.fixEdits) d.fixEdits = w.fixEdits;
    if (w.notes) d.notes = w.notes;
    if (w.related) d.related = w.related.map((r) => ({ location: loc(r.location), message: r.message }));
    return d;
  });
}
