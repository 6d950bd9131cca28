/** A source text with a line index, so byte offsets can be turned into line:col positions. */
export class SourceText {
  private readonly lineStarts: number[];

  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    const starts = [0];
    // Python's line ends: \n, \r\n and a lone \r.
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
    }
    this.lineStarts = starts;
  }

  /** 1-based line and column of a character offset (clamped into the text). */
  position(offset: number): { line: number; col: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    return { line, col: o - this.lineStarts[line - 1]! + 1 };
  }

  /** 1-based line of a character offset (clamped into the text), without allocating. */
  lineOf(offset: number): number {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Offset of the first character of a 1-based line (text length past the end). */
  lineStart(line: number): number {
    return this.lineStarts[line - 1] ?? this.text.length;
  }

  /** The text of a 1-based line without its newline. */
  lineText(line: number): string {
    const start = this.lineStart(line);
    const next = this.lineStarts[line];
    const end = next === undefined ? this.text.length : next - 1;
    return this.text.slice(start, end).replace(/\r$/, '');
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }
}
