/**
 * The remove_func_attr edit: drops entries of a function's `pl.func_attr({...})` prologue,
 * whichever line holds them (PyPTO merges the lines into one attribute map); a line left with no
 * entry is removed whole. The tree is edited alike (entries spliced out, emptied lines dropped).
 *
 * Before → after, remove_func_attr(f, "cache_policy"):
 *     pl.func_attr({"split": 2})                             pl.func_attr({"split": 2})
 *     pl.func_attr({"cache_policy": [(0, 1)], "x": 1})  →    pl.func_attr({"x": 1})
 *
 *     pl.func_attr({"split": 2})                        →    pl.func_attr({"split": 2})
 *     pl.func_attr({"cache_policy": [(0, 1)]})               t = pl.load(x, [0, 0], [64, 64])
 *     t = pl.load(x, [0, 0], [64, 64])
 *
 *     pl.func_attr({"x": 1, "cache_policy": [(0, 1)]})  →    pl.func_attr({"x": 1})
 */
import { newlineAt } from '../frontend/chars.js';
import { attrKey } from '../ir/func-attrs.js';
import type { DictExpr, FunctionDef } from '../ir/nodes.js';
import type { SourceEdit } from './patch.js';

/** The deletions removing the entries of `f` whose key is in `keys` from `text`; edits `f.attrs` to match. */
export function removeFuncAttrs(f: FunctionDef, keys: ReadonlySet<string>, text: string): SourceEdit[] {
  const out: SourceEdit[] = [];
  const kept: DictExpr[] = [];
  for (const d of f.attrs) {
    const gone = d.entries.map((e) => {
      const k = attrKey(e);
      return k !== null && keys.has(k);
    });
    if (!gone.includes(true)) {
      kept.push(d);
      continue;
    }
    if (!gone.includes(false)) {
      out.push(removeLine(d, text));
      continue;
    }
    out.push(...removeEntries(d, gone));
    d.entries = d.entries.filter((_, i) => !gone[i]);
    kept.push(d);
  }
  f.attrs = kept;
  return out;
}

/**
 * Deletions of the entries `gone` marks (some, not all) with their separating commas: an entry
 * followed by another goes with the text up to the next key; the entries after the last kept one
 * go with the comma that precedes them.
 */
function removeEntries(d: DictExpr, gone: readonly boolean[]): SourceEdit[] {
  const es = d.entries;
  const lastKept = gone.lastIndexOf(false);
  const out: SourceEdit[] = [];
  for (let i = 0; i < lastKept; i++) {
    if (gone[i]) out.push({ kind: 'deleteRange', span: { start: es[i]!.key.start, end: es[i + 1]!.key.start } });
  }
  if (lastKept < es.length - 1) {
    out.push({ kind: 'deleteRange', span: { start: es[lastKept]!.value.end, end: es[es.length - 1]!.value.end } });
  }
  return out;
}

/**
 * The deletion of the `pl.func_attr(...)` statement holding `d`: its whole line(s) when it stands
 * alone, else the call with the `;` that separates it from the statement after it.
 */
function removeLine(d: DictExpr, text: string): SourceEdit {
  let callStart = text.lastIndexOf('func_attr', d.start);
  // Back over the module prefix (`pl.`, `pl . `).
  while (callStart > 0 && /[\w. \t]/.test(text[callStart - 1]!)) callStart--;
  while (callStart < d.start && (text[callStart] === ' ' || text[callStart] === '\t')) callStart++;
  let close = d.end;
  while (close < text.length && text[close] !== ')') close++;
  const after = close + 1;
  let lineStart = callStart;
  while (lineStart > 0 && newlineAt(text, lineStart - 1) === 0) lineStart--;
  let lineEnd = after;
  while (lineEnd < text.length && newlineAt(text, lineEnd) === 0) lineEnd++;
  const rest = text.slice(after, lineEnd).trim();
  if (text.slice(lineStart, callStart).trim() === '' && (rest === '' || rest.startsWith('#'))) {
    return { kind: 'deleteRange', span: { start: lineStart, end: lineEnd + newlineAt(text, lineEnd) } };
  }
  // `pl.func_attr({...}); x = 1`: the call and the `;` after it; `x = 1; pl.func_attr({...})`:
  // the `;` before it and the call.
  const semi = /^[ \t]*;[ \t]*/.exec(text.slice(after, lineEnd));
  if (semi) return { kind: 'deleteRange', span: { start: callStart, end: after + semi[0].length } };
  const before = /[ \t]*;[ \t]*$/.exec(text.slice(lineStart, callStart));
  return { kind: 'deleteRange', span: { start: before ? lineStart + before.index : callStart, end: after } };
}
