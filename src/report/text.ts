import type { Diagnostic, Location } from './diagnostic.js';

/** `file:line:col` of a location. */
export function formatPosition(loc: Location): string {
  const { line, col } = loc.source.position(loc.start);
  return `${loc.source.path}:${line}:${col}`;
}

/**
 * A source line as it may be printed on a terminal: control characters (NUL, ESC, ... — a binary
 * file's bytes) become their one-character Unicode pictures (`␀`, `␛`), so no escape sequence
 * runs live and the carets stay aligned. Tabs are kept.
 */
export function visibleLine(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x20 ? String.fromCharCode(0x2400 + n) : n === 0x7f ? '\u2421' : '\ufffd';
  });
}

/**
 * A code frame: the offending line with one line of context on each side and a caret line
 * under the located range (carets span the range on its first line).
 */
export function codeFrame(loc: Location, context = 1): string {
  const src = loc.source;
  const { line, col } = src.position(loc.start);
  const endPos = src.position(Math.max(loc.start, loc.end));
  const first = Math.max(1, line - context);
  const last = Math.min(src.lineCount, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let l = first; l <= last; l++) {
    const text = visibleLine(src.lineText(l));
    const marker = l === line ? '>' : ' ';
    out.push(`${marker} ${String(l).padStart(width)} | ${text}`);
    if (l === line) {
      const lineEnd = endPos.line === line ? endPos.col : text.length + 1;
      const count = Math.max(1, lineEnd - col);
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(col - 1)}${'^'.repeat(count)}`);
    }
  }
  return out.join('\n');
}

/** Renders one diagnostic as the text users see on stderr: header, code frame, fix, notes. */
export function renderDiagnostic(d: Diagnostic): string {
  const where = d.location ? formatPosition(d.location) : (d.path ?? 'ptolog');
  const lines = [`${where}: ${d.severity}[${d.code}]: ${d.message}`];
  if (d.location) lines.push(codeFrame(d.location));
  if (d.fix) lines.push(`  fix: ${d.fix}`);
  for (const n of d.notes ?? []) lines.push(`  note: ${n}`);
  for (const r of d.related ?? []) {
    lines.push(`  ${formatPosition(r.location)}: ${r.message}`);
    lines.push(codeFrame(r.location, 0).replace(/^/gm, '  '));
  }
  return lines.join('\n');
}

/** Renders a list of diagnostics separated by blank lines. */
export function renderDiagnostics(ds: readonly Diagnostic[]): string {
  return ds.map(renderDiagnostic).join('\n\n');
}
