import type { EvalResult } from '../datalog/index.js';
import { emptyEdits, type EditSet, type InsertAfterEdit } from '../rewrite/edits.js';

const num = (v: unknown): number => v as number;
const sym = (v: unknown): string => v as string;

/** Reads the edit relations of rules/edits.dl out of an evaluation result. */
export function readEdits(result: EvalResult): EditSet {
  const e = emptyEdits();
  const rows = (rel: string): (string | number)[][] => (result.has(rel) ? result.tuples(rel) : []);
  for (const [s, ord, marker, dst, shape] of rows('insert_after')) {
    // (an unknown marker is reported, located, by the rewriter)
    e.insertAfter.push({ stmt: num(s), ord: num(ord), marker: sym(marker) as InsertAfterEdit['marker'], dst: num(dst), shape: num(shape) });
  }
  for (const [loop, ord, name, array] of rows('insert_barrier')) {
    e.insertBarrier.push({ loop: num(loop), ord: num(ord), name: sym(name), array: num(array) });
  }
  for (const [node, name] of rows('replace_deps')) e.replaceDeps.push({ node: num(node), name: sym(name) });
  for (const [call, key, value] of rows('set_kwarg')) e.setKwarg.push({ call: num(call), key: sym(key), value: sym(value) });
  for (const [func, key] of rows('remove_func_attr')) e.removeFuncAttr.push({ func: num(func), key: sym(key) });
  return e;
}
