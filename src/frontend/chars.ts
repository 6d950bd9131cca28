/** Character codes and classes shared by the line scanner and the layout pre-tokenizer. */
export const SP = 32;
export const TAB = 9;
export const FF = 12;
export const CR = 13;
export const LF = 10;
export const HASH = 35;
export const BSLASH = 92;
export const DQ = 34;
export const SQ = 39;

/** True for a character that can be part of a Python identifier (ASCII word chars, any non-ASCII). */
export function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c > 127;
}

/**
 * Length of the newline at `i` as Python reads it (`\r\n` 2, a lone `\n` or `\r` 1), else 0.
 * Python's tokenizer treats all three as line ends, so a lone CR ends a line (and a comment).
 */
export function newlineAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === LF) return 1;
  if (c === CR) return text.charCodeAt(i + 1) === LF ? 2 : 1;
  return 0;
}
