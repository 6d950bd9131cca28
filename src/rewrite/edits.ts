/**
 * The edit vocabulary (declared for rules in rules/edits.dl): the only changes rules can ask
 * the rewriter for. Ids are node ids from fact extraction. The rewriter knows no op by name:
 * an inserted call is a template the rules derive (op, arguments, keyword arguments).
 */
import { IntColumn } from './columns.js';

/**
 * A value of an inserted call's argument (call_arg / call_kwarg's kind, node, text):
 * `expr` a copy of expression `node`; `list` `[node]`; `name` the identifier `text`; `text`
 * DSL text parsed by the expression parser; `shape` the declared dimensions of type `node`;
 * `zeros` as many `0` as type `node` has dimensions.
 */
export interface EditValue {
  kind: string;
  node: number;
  text: string;
}

/** insert_call(s, place, seq, op, bind) with its call_arg / call_kwarg rows. */
export interface InsertCallEdit {
  stmt: number;
  /** "after" or "before" (anything else is a bad edit). */
  place: string;
  seq: number;
  /** Canonical op name (`system.fence`). */
  op: string;
  /** The name bound to the result (`""`: an expression statement). */
  bind: string;
  args: Array<{ pos: number; value: EditValue }>;
  kwargs: Array<{ key: string; value: EditValue }>;
}

/** A call_arg / call_kwarg row whose insert_call the rules did not derive. */
export interface OrphanArgEdit {
  stmt: number;
  place: string;
  seq: number;
  what: string;
}

/** replace_deps(c, name): the deps list of Submit / task-launch scope c becomes `[name]`. */
export interface ReplaceDepsEdit {
  node: number;
  name: string;
}

/** set_kwarg(c, key, value) / replace_kwarg(c, key, value): keyword `key=value` (DSL text) on call c. */
export interface SetKwargEdit {
  call: number;
  key: string;
  value: string;
}

/** remove_func_attr(f, key): drop entry `key` from function f's `pl.func_attr`. */
export interface RemoveFuncAttrEdit {
  func: number;
  key: string;
}

/**
 * hoist_call(s, e, name): expression e of statement s (a call in a `return` value or a
 * `pl.yield_` argument) is bound to `name` by a statement inserted right before s (before the
 * calls inserted before s), and `name` takes its place in s — PyPTO's FlattenCallExpr.
 */
export interface HoistEdit {
  stmt: number;
  expr: number;
  name: string;
}

/** bad_edit(n, message): the rules say an edit they derived is wrong. */
export interface BadEditFact {
  node: number;
  message: string;
}

/** Every edit derived by a pass, grouped by kind. */
export interface EditSet {
  insertCall: InsertCallEdit[];
  orphanArgs: OrphanArgEdit[];
  replaceDeps: ReplaceDepsEdit[];
  setKwarg: SetKwargEdit[];
  replaceKwarg: SetKwargEdit[];
  removeFuncAttr: RemoveFuncAttrEdit[];
  /** (Absent: none.) */
  hoist?: HoistEdit[];
  bad: BadEditFact[];
}

/** An edit set with nothing in it. */
export function emptyEdits(): EditSet {
  return { insertCall: [], orphanArgs: [], replaceDeps: [], setKwarg: [], replaceKwarg: [], removeFuncAttr: [], hoist: [], bad: [] };
}

/** The number of edits in a set (rules' bad_edit facts and orphan arguments count, so they are reported). */
export function editCount(e: EditSet): number {
  const calls = e instanceof EditTable ? e.calls.count : e.insertCall.length;
  const deps = e instanceof EditTable ? e.deps.name.length : e.replaceDeps.length;
  return (
    calls +
    e.orphanArgs.length +
    deps +
    e.setKwarg.length +
    e.replaceKwarg.length +
    e.removeFuncAttr.length +
    (e.hoist?.length ?? 0) +
    e.bad.length
  );
}

/**
 * The argument (or keyword argument) rows of the inserted calls, one entry per row in each
 * column: `owner` the index of the call in its InsertCalls, `key` the position (call_arg) or
 * keyword (call_kwarg). `grouped` lists the rows call by call (`from[c]` to `from[c + 1]`).
 */
export class ValueRows<K extends number | string> {
  readonly owner = new IntColumn();
  readonly key: K[] = [];
  readonly kind: string[] = [];
  readonly node = new IntColumn();
  readonly text: string[] = [];
  private from: Int32Array = new Int32Array(1);
  private grouped: Int32Array = new Int32Array(0);

  /** Adds a row of call `owner` (value: kind, node, text as in EditValue). */
  push(owner: number, key: K, kind: string, node: number, text: string): void {
    this.owner.push(owner);
    this.key.push(key);
    this.kind.push(kind);
    this.node.push(node);
    this.text.push(text);
  }

  /**
   * Groups the rows by call (`calls` of them), each call's rows in the order they were added,
   * then sorted with `cmp` (stable) where `le` finds them out of order.
   */
  group(calls: number, le?: (a: K, b: K) => boolean, cmp?: (a: K, b: K) => number): void {
    const from = new Int32Array(calls + 1);
    const rows = this.owner.length;
    for (let r = 0; r < rows; r++) from[this.owner.at(r) + 1]!++;
    for (let c = 0; c < calls; c++) from[c + 1]! += from[c]!;
    const at = from.slice(0, calls);
    const grouped = new Int32Array(rows);
    for (let r = 0; r < rows; r++) grouped[at[this.owner.at(r)]!++] = r;
    if (le && cmp) {
      for (let c = 0; c < calls; c++) {
        const a = from[c]!;
        const b = from[c + 1]!;
        let sorted = true;
        for (let i = a + 1; i < b && sorted; i++) sorted = le(this.key[grouped[i - 1]!]!, this.key[grouped[i]!]!);
        if (!sorted)
          grouped.set(
            Array.from(grouped.subarray(a, b)).sort((x, y) => cmp(this.key[x]!, this.key[y]!)),
            a,
          );
      }
    }
    this.from = from;
    this.grouped = grouped;
  }

  /** The rows of call `c`, grouped (see `group`), as `f(key, value)`. */
  of<T>(c: number, f: (key: K, value: EditValue) => T): T[] {
    const out: T[] = [];
    for (let i = this.from[c]!; i < this.from[c + 1]!; i++) {
      const r = this.grouped[i]!;
      out.push(f(this.key[r]!, { kind: this.kind[r]!, node: this.node.at(r), text: this.text[r]! }));
    }
    return out;
  }
}

/** The insert_call edits of a set as columns: call `i` is insert_call(stmt[i], place[i], seq[i], op[i], bind[i]). */
export class InsertCalls {
  readonly stmt = new IntColumn();
  readonly place: string[] = [];
  readonly seq = new IntColumn();
  readonly op: string[] = [];
  readonly bind: string[] = [];
  readonly args = new ValueRows<number>();
  readonly kwargs = new ValueRows<string>();

  get count(): number {
    return this.place.length;
  }

  /** Adds a call (no arguments yet); returns its index. */
  push(stmt: number, place: string, seq: number, op: string, bind: string): number {
    this.stmt.push(stmt);
    this.place.push(place);
    this.seq.push(seq);
    this.op.push(op);
    this.bind.push(bind);
    return this.place.length - 1;
  }

  /** Call `i` as an object (built on each call, with its grouped arguments). */
  edit(i: number): InsertCallEdit {
    return {
      stmt: this.stmt.at(i),
      place: this.place[i]!,
      seq: this.seq.at(i),
      op: this.op[i]!,
      bind: this.bind[i]!,
      args: this.args.of(i, (pos, value) => ({ pos, value })),
      kwargs: this.kwargs.of(i, (key, value) => ({ key, value })),
    };
  }
}

/**
 * An edit set held as columns (what readEdits returns: a million-statement kernel derives
 * hundreds of thousands of insertions, an object each would be most of the run's memory).
 * `insertCall` and `replaceDeps` are built as objects on each read of them; the rewriter
 * reads the columns.
 */
export class EditTable implements EditSet {
  readonly calls = new InsertCalls();
  readonly deps: { readonly node: IntColumn; readonly name: string[] } = { node: new IntColumn(), name: [] };
  orphanArgs: OrphanArgEdit[] = [];
  setKwarg: SetKwargEdit[] = [];
  replaceKwarg: SetKwargEdit[] = [];
  removeFuncAttr: RemoveFuncAttrEdit[] = [];
  hoist: HoistEdit[] = [];
  bad: BadEditFact[] = [];

  get insertCall(): InsertCallEdit[] {
    const out: InsertCallEdit[] = [];
    for (let i = 0; i < this.calls.count; i++) out.push(this.calls.edit(i));
    return out;
  }

  get replaceDeps(): ReplaceDepsEdit[] {
    return this.deps.name.map((name, i) => ({ node: this.deps.node.at(i), name }));
  }

  /** `edits` as columns (itself when it is an EditTable), the edits in the same order. */
  static of(edits: EditSet): EditTable {
    if (edits instanceof EditTable) return edits;
    const t = new EditTable();
    for (const e of edits.insertCall) {
      const c = t.calls.push(e.stmt, e.place, e.seq, e.op, e.bind);
      for (const a of e.args) t.calls.args.push(c, a.pos, a.value.kind, a.value.node, a.value.text);
      for (const k of e.kwargs) t.calls.kwargs.push(c, k.key, k.value.kind, k.value.node, k.value.text);
    }
    t.calls.args.group(t.calls.count);
    t.calls.kwargs.group(t.calls.count);
    for (const d of edits.replaceDeps) {
      t.deps.node.push(d.node);
      t.deps.name.push(d.name);
    }
    t.orphanArgs = edits.orphanArgs;
    t.setKwarg = edits.setKwarg;
    t.replaceKwarg = edits.replaceKwarg;
    t.removeFuncAttr = edits.removeFuncAttr;
    t.hoist = edits.hoist ?? [];
    t.bad = edits.bad;
    return t;
  }
}
