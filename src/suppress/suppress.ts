/**
 * Suppression comments in kernels:
 *
 * - `# ptolog: ignore[code, ...]` at the end of a line, or alone on the line above, drops
 *   those codes' diagnostics located on that line; `# ptolog: ignore` (no list) drops every code;
 * - `# ptolog: ignore-file[code, ...]` (anywhere, alone on its line) drops them in the whole file.
 */
import type { Diagnostic } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { closestName } from '../report/suggest.js';
import { commentRanges, inRanges } from './comments.js';

/** One suppression comment. */
export interface Suppression {
  /** 1-based line the comment is on. */
  line: number;
  /** The lines it covers (its own, and the next one when the comment is alone on its line). */
  covers: number[];
  fileWide: boolean;
  /** Codes listed, each with its offset in the source; empty means every code. */
  codes: { code: string; start: number }[];
  /** Offset of the comment. */
  start: number;
  end: number;
}

const COMMENT = /#\s*ptolog:\s*(ignore-file|ignore)\b(?:\[([^\]]*)\])?/g;

/** The suppression comments of a source text, in order: only in real comments, never in a string or docstring. */
export function parseSuppressions(source: SourceText): Suppression[] {
  const out: Suppression[] = [];
  const text = source.text;
  if (!text.includes('ptolog:')) return out;
  const comments = commentRanges(text);
  for (const m of text.matchAll(COMMENT)) {
    const start = m.index;
    if (!inRanges(comments, start)) continue;
    const line = source.lineOf(start);
    const before = text.slice(source.lineStart(line), start);
    const alone = before.trim() === '';
    const fileWide = m[1] === 'ignore-file';
    const codes: { code: string; start: number }[] = [];
    if (m[2] !== undefined) {
      const listStart = start + m[0].indexOf('[') + 1;
      for (const part of m[2].matchAll(/[^,\s]+/g)) codes.push({ code: part[0], start: listStart + part.index });
    }
    out.push({ line, covers: alone ? [line, line + 1] : [line], fileWide, codes, start, end: start + m[0].length });
  }
  return out;
}

/** Options of applySuppressions. */
export interface SuppressOptions {
  /**
   * The codes ptolog knows: a suppression naming another code gets an `unknown-suppression-code`
   * warning. A function is called only when a suppression comment names a code (finding every
   * code reads the rule files: a file without such a comment should not pay for it).
   */
  knownCodes?: ReadonlySet<string> | (() => ReadonlySet<string>);
  /** Report suppressions (or codes in them) that dropped nothing, as `unused-suppression` warnings. */
  reportUnused?: boolean;
}

/** What applySuppressions kept and dropped. */
export interface SuppressResult {
  /** The diagnostics left, plus warnings about the suppressions themselves. */
  diagnostics: Diagnostic[];
  /** The diagnostics the comments dropped. */
  suppressed: Diagnostic[];
}

/**
 * Drops the diagnostics located in `source` that a suppression comment there covers; adds a
 * warning for each suppression code ptolog does not know and (with reportUnused) for each
 * suppression that dropped nothing. Diagnostics of other files pass through untouched.
 */
export function applySuppressions(diagnostics: readonly Diagnostic[], source: SourceText, opts: SuppressOptions = {}): SuppressResult {
  const sups = parseSuppressions(source);
  if (sups.length === 0) return { diagnostics: [...diagnostics], suppressed: [] };
  const used = new Set<string>(); // `${suppression index}\0${code or *}`
  const byLine = new Map<number, number[]>();
  sups.forEach((s, i) => {
    if (s.fileWide) return;
    for (const l of s.covers) byLine.set(l, [...(byLine.get(l) ?? []), i]);
  });
  const fileWide = sups.map((s, i) => [s, i] as const).filter(([s]) => s.fileWide);
  const matches = (s: Suppression, i: number, code: string): boolean => {
    if (s.codes.length === 0) {
      used.add(`${i}\0*`);
      return true;
    }
    if (s.codes.some((c) => c.code === code)) {
      used.add(`${i}\0${code}`);
      return true;
    }
    return false;
  };
  const kept: Diagnostic[] = [];
  const suppressed: Diagnostic[] = [];
  for (const d of diagnostics) {
    const inFile = d.location ? d.location.source.path === source.path : d.path === source.path;
    if (!inFile) {
      kept.push(d);
      continue;
    }
    let hit = false;
    for (const [s, i] of fileWide) if (matches(s, i, d.code)) hit = true;
    if (d.location) {
      const line = source.lineOf(d.location.start);
      for (const i of byLine.get(line) ?? []) if (matches(sups[i]!, i, d.code)) hit = true;
    }
    (hit ? suppressed : kept).push(d);
  }
  let known: ReadonlySet<string> | undefined;
  const knownCodes = (): ReadonlySet<string> | undefined => {
    if (known === undefined && opts.knownCodes !== undefined)
      known = typeof opts.knownCodes === 'function' ? opts.knownCodes() : opts.knownCodes;
    return known;
  };
  sups.forEach((s, i) => {
    const where = (start: number, end: number): Diagnostic['location'] => ({ source, start, end });
    for (const c of s.codes) {
      const codes = knownCodes();
      if (codes && !codes.has(c.code)) {
        kept.push({
          severity: 'warning',
          code: 'unknown-suppression-code',
          location: where(c.start, c.start + c.code.length),
          message: `the suppression names ${c.code}, which is no code ptolog reports${didYouMean(c.code, codes)}`,
          fix: 'check the spelling (`ptolog rules` lists the codes).',
        });
      } else if (opts.reportUnused && !used.has(`${i}\0${c.code}`)) {
        kept.push({
          severity: 'warning',
          code: 'unused-suppression',
          location: where(c.start, c.start + c.code.length),
          message: `nothing here is reported as ${c.code}; the suppression is unused`,
          fix: 'remove it.',
        });
      }
    }
    if (s.codes.length === 0 && opts.reportUnused && !used.has(`${i}\0*`)) {
      kept.push({
        severity: 'warning',
        code: 'unused-suppression',
        location: where(s.start, s.end),
        message: 'nothing here is reported; the suppression is unused',
        fix: 'remove it.',
      });
    }
  });
  return { diagnostics: kept, suppressed };
}

function didYouMean(code: string, known: ReadonlySet<string>): string {
  const near = closestName(code, known);
  return near ? ` (did you mean ${near}?)` : '';
}
