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
  // The insert_call edits of each statement, found by (place, seq) among them. Rows come
  // sorted, statements ascending: a binary search finds a statement's calls (the few after
  // the first); were they not sorted, an index by statement does.
  let sorted = true;
  let byStmt: Map<number, number[]> | null = null;
  const indexed = (c: number): void => {
    const list = byStmt?.get(calls.stmt.at(c));
    if (list) list.push(c);
    else byStmt?.set(calls.stmt.at(c), [c]);
  };
  const matches = (c: number, place: string, seq: number): boolean => calls.place[c] === place && calls.seq.at(c) === seq;
  const callAt = (s: number, place: string, seq: number): number => {
    if (!sorted) {
      if (!byStmt) {
        byStmt = new Map();
        for (let c = 0; c < calls.count; c++) indexed(c);
      }
      return byStmt.get(s)?.find((c) => matches(c, place, seq)) ?? -1;
    }
    let lo = 0;
    let hi = calls.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (calls.stmt.at(mid) < s) lo = mid + 1;
      else hi = mid;
    }
    for (let c = lo; c < calls.count && calls.stmt.at(c) === s; c++) if (matches(c, place, seq)) return c;
    return -1;
  };
  each('insert_call', (t) => {
    const s = num(t[0]);
    const before = callAt(s, sym(t[1]), num(t[2]));
    if (before >= 0) {
      // Two templates for one place: the rewriter reports it (located), never picks one.
      e.orphanArgs.push({
        stmt: s,
        place: sym(t[1]),
        seq: num(t[2]),
        what: `two calls (${calls.op[before]!}, ${sym(t[3])}) at the same place and seq`,
      });
      return;
    }
    if (calls.count > 0 && s < calls.stmt.at(calls.count - 1)) sorted = false;
    indexed(calls.push(s, sym(t[1]), num(t[2]), sym(t[3]), sym(t[4])));
  });
  // (Tuples are indexed, not destructured: a million rows without an iterator each.)
  each('call_arg', (t) => {
    const c = callAt(num(t[0]), sym(t[1]), num(t[2]));
    if (c >= 0) calls.args.push(c, num(t[3]), sym(t[4]), num(t[5]), sym(t[6]));
    else e.orphanArgs.push({ stmt: num(t[0]), place: sym(t[1]), seq: num(t[2]), what: `call_arg at position ${num(t[3])}` });
  });
  each('call_kwarg', (t) => {
    const c = callAt(num(t[0]), sym(t[1]), num(t[2]));
    if (c >= 0) calls.kwargs.push(c, sym(t[3]), sym(t[4]), num(t[5]), sym(t[6]));
    else e.orphanArgs.push({ stmt: num(t[0]), place: sym(t[1]), seq: num(t[2]), what: `call_kwarg ${sym(t[3])}=` });
  });
  byStmt = null;
  // Each call's arguments by position, keywords by name. (Rows come sorted, so these are
  // mostly in order already: sorted only when not.)
  calls.args.group(
    calls.count,
    (a, b) => a <= b,
    (a, b) => a - b,
  );
  calls.kwargs.group(
    calls.count,
    (a, b) => a <= b,
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  each('replace_deps', (t) => {
    e.deps.node.push(num(t[0]));
    e.deps.name.push(sym(t[1]));
  });
  each('set_kwarg', ([call, k, value]) => e.setKwarg.push({ call: num(call), key: sym(k), value: sym(value) }));
  each('replace_kwarg', ([call, k, value]) => e.replaceKwarg.push({ call: num(call), key: sym(k), value: sym(value) }));
  each('remove_func_attr', ([func, k]) => e.removeFuncAttr.push({ func: num(func), key: sym(k) }));
  each('hoist_call', ([st, ex, name]) => e.hoist.push({ stmt: num(st), expr: num(ex), name: sym(name) }));
  each('bad_edit', ([node, message]) => e.bad.push({ node: num(node), message: sym(message) }));
  return e;
}
