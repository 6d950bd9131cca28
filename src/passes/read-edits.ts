import type { EvalResult, Value } from '../datalog/index.js';
import { EditTable } from '../rewrite/edits.js';

const num = (v: unknown): number => v as number;
const sym = (v: unknown): string => v as string;

/** Reads the edit relations of rules/edits.dl out of an evaluation result (as columns, see EditTable). */
export function readEdits(result: EvalResult): EditTable {
  const e = new EditTable();
  const calls = e.calls;
  // Rows are read one at a time (a million-statement kernel derives hundreds of thousands).
  const each = (rel: string, f: (t: readonly Value[]) => void): void => {
    if (result.has(rel)) result.forEachTuple(rel, f);
  };
  // The insert_call edits of each statement, found by (place, seq) among them: the latest
  // call of a statement, then each call's previous one at the same statement (-1: none).
  const latestAt = new Map<number, number>();
  const earlierAt: number[] = [];
  const callAt = (s: number, place: string, seq: number): number => {
    let c = latestAt.get(s) ?? -1;
    while (c >= 0 && !(calls.place[c] === place && calls.seq[c] === seq)) c = earlierAt[c]!;
    return c;
  };
  each('insert_call', ([s, place, seq, op, bind]) => {
    const before = callAt(num(s), sym(place), num(seq));
    if (before >= 0) {
      // Two templates for one place: the rewriter reports it (located), never picks one.
      e.orphanArgs.push({ stmt: num(s), place: sym(place), seq: num(seq), what: `two calls (${calls.op[before]!}, ${sym(op)}) at the same place and seq` });
      return;
    }
    const c = calls.push(num(s), sym(place), num(seq), sym(op), sym(bind));
    earlierAt.push(latestAt.get(num(s)) ?? -1);
    latestAt.set(num(s), c);
  });
  each('call_arg', ([s, place, seq, pos, kind, node, text]) => {
    const c = callAt(num(s), sym(place), num(seq));
    if (c >= 0) calls.args.push(c, num(pos), sym(kind), num(node), sym(text));
    else e.orphanArgs.push({ stmt: num(s), place: sym(place), seq: num(seq), what: `call_arg at position ${num(pos)}` });
  });
  each('call_kwarg', ([s, place, seq, k, kind, node, text]) => {
    const c = callAt(num(s), sym(place), num(seq));
    if (c >= 0) calls.kwargs.push(c, sym(k), sym(kind), num(node), sym(text));
    else e.orphanArgs.push({ stmt: num(s), place: sym(place), seq: num(seq), what: `call_kwarg ${sym(k)}=` });
  });
  latestAt.clear();
  // Each call's arguments by position, keywords by name. (Rows come sorted, so these are
  // mostly in order already: sorted only when not.)
  calls.args.group(calls.count, (a, b) => a <= b, (a, b) => a - b);
  calls.kwargs.group(calls.count, (a, b) => a <= b, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  each('replace_deps', ([node, name]) => {
    e.deps.node.push(num(node));
    e.deps.name.push(sym(name));
  });
  each('set_kwarg', ([call, k, value]) => e.setKwarg.push({ call: num(call), key: sym(k), value: sym(value) }));
  each('replace_kwarg', ([call, k, value]) => e.replaceKwarg.push({ call: num(call), key: sym(k), value: sym(value) }));
  each('remove_func_attr', ([func, k]) => e.removeFuncAttr.push({ func: num(func), key: sym(k) }));
  each('bad_edit', ([node, message]) => e.bad.push({ node: num(node), message: sym(message) }));
  return e;
}
