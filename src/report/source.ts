/** A source text with a line index, so byte offsets can be turned into line:col positions. */
export class SourceText {
  private readonly lineStarts: number[];
  private readonly ascii: boolean;
  /** UTF-8 byte offset of each line start; built on the first byte-offset question about non-ASCII text. */
  private lineByteStarts: number[] | undefined;

  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    const starts = [0];
    // Python's line ends: \n, \r\n and a lone \r. Without a CR, a native search finds them
    // (this runs once over the whole module, before the JIT has compiled anything).
    if (!text.includes('\r')) {
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
    this.ascii = !/[^\0-\x7f]/.test(text);
  }

  /** UTF-8 byte offset of a character offset (clamped into the text); O(line length), not O(offset). */
  byteOffset(offset: number): number {
    const o = Math.max(0, Math.min(offset, this.text.length));
    if (this.ascii) return o;
    if (this.lineByteStarts === undefined) {
      const starts = [0];
      for (let l = 1; l < this.lineStarts.length; l++) {
        starts.push(starts[l - 1]! + utf8Length(this.text, this.lineStarts[l - 1]!, this.lineStarts[l]!));
      }
      this.lineByteStarts = starts;
    }
    const line = this.lineOf(o);
    return this.lineByteStarts[line - 1]! + utf8Length(this.text, this.lineStarts[line - 1]!, o);
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

/** Bytes the UTF-16 code units text[from, to) take in UTF-8 (a surrogate pair: 4). */
function utf8Length(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3;
  }
  return n;
}
