// Line-level facts of a file's text the patcher needs: its newline style, its indentation
// unit, line breaks in a range; and removing lines (the inverse of pure insertions).

/** The line breaks in s[from, to): \n, \r\n (once) and a lone \r (a \r at `to` counts alone). */
export function countLines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || (c === 13 && (i + 1 >= to || s.charCodeAt(i + 1) !== 10))) n++;
  }
  return n;
}

/** The newline a file uses: `\r\n` when it has one, a lone `\r` when it has no `\n`, else `\n`. */
export function newlineStyle(text: string): string {
  if (text.includes('\r\n')) return '\r\n';
  if (text.includes('\r') && !text.includes('\n')) return '\r';
  return '\n';
}

/** The indentation unit of a file: the smallest positive indentation step seen (default 4). */
export function indentUnit(text: string): string {
  let best = 0;
  let prev = 0;
  // Line by line (\n, \r\n or a lone \r ends a line), without copying the text: the leading
  // spaces of each line whose first other character is not white space.
  const len = text.length;
  let i = 0;
  while (i < len) {
    let n = 0;
    while (text.charCodeAt(i + n) === 32) n++;
    if (i + n < len && NOT_SPACE.test(text[i + n]!)) {
      if (n > prev) {
        const d = n - prev;
        if (best === 0 || d < best) best = d;
      }
      prev = n;
    }
    let j = i + n;
    while (j < len && text.charCodeAt(j) !== 10 && text.charCodeAt(j) !== 13) j++;
    i = text.charCodeAt(j) === 13 && text.charCodeAt(j + 1) === 10 ? j + 2 : j + 1;
  }
  return ' '.repeat(best || 4);
}

const NOT_SPACE = /\S/;

/** Removes the given 1-based lines (with their newlines) — the inverse of pure insertions. */
export function removeLines(text: string, lines: readonly number[]): string {
  const drop = new Set(lines);
  const parts = text.split('\n');
  return parts.filter((_, i) => !drop.has(i + 1)).join('\n');
}
