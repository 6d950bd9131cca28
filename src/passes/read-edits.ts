import type { EvalResult, Value } from '../datalog/index.js';
import { emptyEdits, type EditSet, type InsertCallEdit } from '../rewrite/edits.js';

const num = (v: unknown): number => v as number;
const sym = (v: unknown): string => v as string;

/** True when every element of `xs` is `le` its successor. */
function inOrder<T>(xs: readonly T[], le: (a: T, b: T) => boolean): boolean {
  for (let i = 1; i < xs.length; i++) if (!le(xs[i - 1]!, xs[i]!)) return false;
  return true;
}

/** Reads the edit relations of rules/edits.dl out of an evaluation result. */
export function readEdits(result: EvalResult): EditSet {
  const e = emptyEdits();
  // Rows are read one at a time (a million-statement kernel derives hundreds of thousands).
  const each = (rel: string, f: (t: readonly Value[]) => void): void => {
    if (result.has(rel)) result.forEachTuple(rel, f);
  };
  // The insert_call edits of each statement, found by (place, seq) among them.
  const calls = new Map<number, InsertCallEdit[]>();
  const callAt = (s: number, place: string, seq: number): InsertCallEdit | undefined => calls.get(s)?.find((c) => c.place === place && c.seq === seq);
  each('insert_call', ([s, place, seq, op, bind]) => {
    const c: InsertCallEdit = { stmt: num(s), place: sym(place), seq: num(seq), op: sym(op), bind: sym(bind), args: [], kwargs: [] };
    const before = callAt(c.stmt, c.place, c.seq);
    if (before) {
      // Two templates for one place: the rewriter reports it (located), never picks one.
      e.orphanArgs.push({ stmt: c.stmt, place: c.place, seq: c.seq, what: `two calls (${before.op}, ${c.op}) at the same place and seq` });
      return;
    }
    const list = calls.get(c.stmt);
    if (list) list.push(c);
    else calls.set(c.stmt, [c]);
    e.insertCall.push(c);
  });
  each('call_arg', ([s, place, seq, pos, kind, node, text]) => {
    const c = callAt(num(s), sym(place), num(seq));
    if (c) c.args.push({ pos: num(pos), value: { kind: sym(kind), node: num(node), text: sym(text) } });
    else e.orphanArgs.push({ stmt: num(s), place: sym(place), seq: num(seq), what: `call_arg at position ${num(pos)}` });
  });
  each('call_kwarg', ([s, place, seq, k, kind, node, text]) => {
    const c = callAt(num(s), sym(place), num(seq));
    if (c) c.kwargs.push({ key: sym(k), value: { kind: sym(kind), node: num(node), text: sym(text) } });
    else e.orphanArgs.push({ stmt: num(s), place: sym(place), seq: num(seq), what: `call_kwarg ${sym(k)}=` });
  });
  for (const c of e.insertCall) {
    // (Rows come sorted, so these are mostly in order already: sorted only when not.)
    if (!inOrder(c.args, (a, b) => a.pos <= b.pos)) c.args.sort((a, b) => a.pos - b.pos);
    if (!inOrder(c.kwargs, (a, b) => a.key <= b.key)) c.kwargs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  each('replace_deps', ([node, name]) => e.replaceDeps.push({ node: num(node), name: sym(name) }));
  each('set_kwarg', ([call, k, value]) => e.setKwarg.push({ call: num(call), key: sym(k), value: sym(value) }));
  each('replace_kwarg', ([call, k, value]) => e.replaceKwarg.push({ call: num(call), key: sym(k), value: sym(value) }));
  each('remove_func_attr', ([func, k]) => e.removeFuncAttr.push({ func: num(func), key: sym(k) }));
  each('bad_edit', ([node, message]) => e.bad.push({ node: num(node), message: sym(message) }));
  return e;
}
