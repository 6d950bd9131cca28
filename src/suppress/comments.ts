/**
 * Where Python comments are: a `#` outside every string literal (single-, double- and
 * triple-quoted, with any prefix, backslash escapes and line continuations) starts a comment
 * that runs to the end of its line. Only these can hold suppressions: a `# ptolog: ...` inside
 * a docstring or a string literal is text.
 */

/** The [start, end) offsets of the real comments of `text`, in order (end at the line break). */
export function commentRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === '#') {
      let end = i;
      while (end < n && text[end] !== '\n' && text[end] !== '\r') end++;
      out.push([i, end]);
      i = end;
    } else if (c === '"' || c === "'") {
      i = stringEnd(text, i);
    } else i++;
  }
  return out;
}

/** The offset just past the string literal whose opening quote is at `i` (the end of text when unterminated). */
function stringEnd(text: string, i: number): number {
  const q = text[i]!;
  const n = text.length;
  const triple = text[i + 1] === q && text[i + 2] === q;
  let j = i + (triple ? 3 : 1);
  while (j < n) {
    const c = text[j]!;
    if (c === '\\') {
      j += 2; // an escaped character (also an escaped line break) never ends the string
      continue;
    }
    if (triple) {
      if (c === q && text[j + 1] === q && text[j + 2] === q) return j + 3;
    } else {
      if (c === q) return j + 1;
      if (c === '\n' || c === '\r') return j; // unterminated: the line ends it
    }
    j++;
  }
  return n;
}

/** Whether `offset` lies inside one of `ranges` (sorted, as commentRanges returns them). */
export function inRanges(ranges: readonly [number, number][], offset: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = ranges[mid]!;
    if (offset < s) hi = mid - 1;
    else if (offset >= e) lo = mid + 1;
    else return true;
  }
  return false;
}
