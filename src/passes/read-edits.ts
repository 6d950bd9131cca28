import type { EvalResult, Value } from '../datalog/index.js';
import { emptyEdits, type EditSet, type InsertCallEdit } from '../rewrite/edits.js';

const num = (v: unknown): number => v as number;
const sym = (v: unknown): string => v as string;

/** Reads the edit relations of rules/edits.dl out of an evaluation result. */
export function readEdits(result: EvalResult): EditSet {
  const e = emptyEdits();
  const rows = (rel: string): Value[][] => (result.has(rel) ? result.tuples(rel) : []);
  const calls = new Map<string, InsertCallEdit>();
  const key = (s: unknown, place: unknown, seq: unknown): string => `${num(s)}\0${sym(place)}\0${num(seq)}`;
  for (const [s, place, seq, op, bind] of rows('insert_call')) {
    const c: InsertCallEdit = { stmt: num(s), place: sym(place), seq: num(seq), op: sym(op), bind: sym(bind), args: [], kwargs: [] };
    const k = key(s, place, seq);
    const before = calls.get(k);
    if (before) {
      // Two templates for one place: the rewriter reports it (located), never picks one.
      e.orphanArgs.push({ stmt: c.stmt, place: c.place, seq: c.seq, what: `two calls (${before.op}, ${c.op}) at the same place and seq` });
      continue;
    }
    calls.set(k, c);
    e.insertCall.push(c);
  }
  for (const [s, place, seq, pos, kind, node, text] of rows('call_arg')) {
    const c = calls.get(key(s, place, seq));
    if (c) c.args.push({ pos: num(pos), value: { kind: sym(kind), node: num(node), text: sym(text) } });
    else e.orphanArgs.push({ stmt: num(s), place: sym(place), seq: num(seq), what: `call_arg at position ${num(pos)}` });
  }
  for (const [s, place, seq, k, kind, node, text] of rows('call_kwarg')) {
    const c = calls.get(key(s, place, seq));
    if (c) c.kwargs.push({ key: sym(k), value: { kind: sym(kind), node: num(node), text: sym(text) } });
    else e.orphanArgs.push({ stmt: num(s), place: sym(place), seq: num(seq), what: `call_kwarg ${sym(k)}=` });
  }
  for (const c of e.insertCall) {
    c.args.sort((a, b) => a.pos - b.pos);
    c.kwargs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  for (const [node, name] of rows('replace_deps')) e.replaceDeps.push({ node: num(node), name: sym(name) });
  for (const [call, k, value] of rows('set_kwarg')) e.setKwarg.push({ call: num(call), key: sym(k), value: sym(value) });
  for (const [call, k, value] of rows('replace_kwarg')) e.replaceKwarg.push({ call: num(call), key: sym(k), value: sym(value) });
  for (const [func, k] of rows('remove_func_attr')) e.removeFuncAttr.push({ func: num(func), key: sym(k) });
  for (const [node, message] of rows('bad_edit')) e.bad.push({ node: num(node), message: sym(message) });
  return e;
}
