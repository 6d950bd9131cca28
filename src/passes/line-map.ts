import type { Diagnostic, Location } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';

/**
 * Where the lines of a patched text come from in the text it was patched from: entry `j - 1`
 * for line `j` of the patched text is the original line (positive), or, for a line the patch
 * inserted, minus the original line it was inserted after (0: before the first line). The
 * rewriter keeps every byte outside its edits, so the original lines appear in order: a line
 * equal to the next original one is that line; lines before the next original one (within a
 * small window) were inserted; original lines before one equal to this line were deleted; any
 * other line is an original line it edited (a keyword added).
 */
export type LineMap = Int32Array;

const WINDOW = 64;

/** Whether `b` reads as `a` edited (a keyword added, a list replaced): they share most of `a`'s start. */
function edited(a: string, b: string): boolean {
  const x = a.trim();
  const y = b.trim();
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return x.length > 0 && n >= Math.max(4, Math.ceil(0.6 * x.length));
}

/** The LineMap from `after` (the patched text) back to `before`. */
export function lineMapOf(before: SourceText, after: SourceText): LineMap {
  const map = new Int32Array(after.lineCount);
  const old = (i: number): string | null => (i <= before.lineCount ? before.lineText(i) : null);
  let i = 1;
  for (let j = 1; j <= after.lineCount; j++) {
    const line = after.lineText(j);
    if (old(i) === line) {
      map[j - 1] = i++;
      continue;
    }
    // The next original line a few lines later: the lines before it were inserted.
    let k = 1;
    while (k <= WINDOW && j + k <= after.lineCount && after.lineText(j + k) !== old(i)) k++;
    // This line a few original lines later: the lines before it were deleted.
    let d = 1;
    while (d <= WINDOW && old(i + d) !== null && old(i + d) !== line) d++;
    const inserted = k <= WINDOW && j + k <= after.lineCount && old(i) !== null;
    const deleted = d <= WINDOW && old(i + d) !== null;
    if (deleted && (!inserted || d <= k)) {
      i += d;
      map[j - 1] = i++;
    } else if (inserted) {
      for (let m = 0; m < k; m++) map[j - 1 + m] = -(i - 1);
      j += k - 1;
    } else {
      // An edited line: the first original line of the window it reads as, else the next one.
      let e = 0;
      while (e <= WINDOW && old(i + e) !== null && !edited(old(i + e)!, line)) e++;
      if (old(i + e) !== null && e <= WINDOW) i += e;
      map[j - 1] = i <= before.lineCount ? i++ : -before.lineCount;
    }
  }
  return map;
}

/** `outer` after `inner`: from the last patched text to the first text (inserted wherever either says so). */
export function composeLineMaps(inner: LineMap | null, outer: LineMap): LineMap {
  if (inner === null) return outer;
  return outer.map((v) => {
    const l = Math.abs(v);
    const back = l === 0 ? 0 : inner[l - 1]!;
    return v > 0 ? back : -Math.abs(back);
  });
}

/** Offset `o` of `from` as an offset of `to` through `map` (a position on an inserted line: the end of its anchor line). */
function mapOffset(o: number, from: SourceText, to: SourceText, map: LineMap): number {
  const { line, col } = from.position(o);
  const v = map[line - 1] ?? 0;
  if (v <= 0) return v === 0 ? 0 : to.lineStart(-v) + to.lineText(-v).length;
  return to.lineStart(v) + Math.min(col - 1, to.lineText(v).length);
}

function mapLocation(l: Location, from: SourceText, to: SourceText, map: LineMap): Location {
  if (l.source !== from) return l;
  return { source: to, start: mapOffset(l.start, from, to, map), end: mapOffset(l.end, from, to, map) };
}

/**
 * `d`, found in `from` (a text earlier passes patched), located in `to` (the file as written)
 * through `map`; a fix whose edits fall on inserted lines is kept as text only.
 */
export function remapDiagnostic(d: Diagnostic, from: SourceText, to: SourceText, map: LineMap): Diagnostic {
  const out: Diagnostic = { ...d };
  if (d.location) out.location = mapLocation(d.location, from, to, map);
  if (d.related) out.related = d.related.map((r) => ({ ...r, location: mapLocation(r.location, from, to, map) }));
  if (d.fixEdits) {
    const onOriginal = d.fixEdits.every((e) => (map[from.position(e.start).line - 1] ?? 0) > 0);
    if (onOriginal)
      out.fixEdits = d.fixEdits.map((e) => ({ ...e, start: mapOffset(e.start, from, to, map), end: mapOffset(e.end, from, to, map) }));
    else delete out.fixEdits;
  }
  return out;
}
