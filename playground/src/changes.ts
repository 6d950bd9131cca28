/** Text changes between two versions of the kernel, as an editor applies them (line granularity). */
import { diffLines } from 'diff';
import type { TextChange } from './protocol.js';

/**
 * The changes that turn `a` into `b`: sorted, non-overlapping ranges of `a` with their new text
 * (whole lines; a removal next to an insertion is one replacement).
 */
export function textChanges(a: string, b: string): TextChange[] {
  const out: TextChange[] = [];
  let pos = 0;
  for (const part of diffLines(a, b)) {
    const len = part.value.length;
    if (!part.added && !part.removed) {
      pos += len;
      continue;
    }
    const change: TextChange = part.added ? { from: pos, to: pos, insert: part.value } : { from: pos, to: pos + len, insert: '' };
    if (part.removed) pos += len;
    const prev = out[out.length - 1];
    if (prev && prev.to === change.from) {
      prev.to = change.to;
      prev.insert += change.insert;
    } else out.push(change);
  }
  return out;
}

/** `text` with `changes` (ranges of `text`, sorted) applied. */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  let out = '';
  let pos = 0;
  for (const c of changes) {
    out += text.slice(pos, c.from) + c.insert;
    pos = c.to;
  }
  return out + text.slice(pos);
}
