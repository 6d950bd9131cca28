/**
 * A function's attributes as PyPTO reads them: the entries of every `pl.func_attr({...})` line of
 * its prologue, merged in source order into one map (PyPTO rejects a key declared twice, so a key
 * names one entry). No key is known here: what an attribute means is its contract's.
 */
import type { DictExpr, Expr, FunctionDef } from './nodes.js';

export type AttrEntry = DictExpr['entries'][number];

/** Every attribute entry of `f`, its `pl.func_attr` lines merged in order. */
export function attrEntries(f: FunctionDef): AttrEntry[] {
  return f.attrs.length === 1 ? f.attrs[0]!.entries : f.attrs.flatMap((d) => d.entries);
}

/** The string key of an entry, or null (PyPTO accepts string-literal keys only). */
export function attrKey(e: AttrEntry): string | null {
  return e.key.kind === 'Str' ? e.key.value : null;
}

/** The `pl.func_attr` line (its dict) of `f` that holds entry `key`, or undefined. */
export function attrLineOf(f: FunctionDef, key: string): DictExpr | undefined {
  return f.attrs.find((d) => d.entries.some((e) => attrKey(e) === key));
}

/** The value of attribute `key` of `f`, or undefined. */
export function attrValue(f: FunctionDef, key: string): Expr | undefined {
  return attrEntries(f).find((e) => attrKey(e) === key)?.value;
}

/** The merged attributes as one dict (the canonical printer writes one `pl.func_attr` line, as PyPTO's does), or null. */
export function mergedAttrs(f: FunctionDef): DictExpr | null {
  const first = f.attrs[0];
  if (first === undefined) return null;
  if (f.attrs.length === 1) return first;
  return { kind: 'Dict', entries: attrEntries(f), start: first.start, end: f.attrs[f.attrs.length - 1]!.end };
}
