/**
 * The edit vocabulary (declared for rules in rules/edits.dl): the only changes rules can ask
 * the rewriter for. Ids are node ids from fact extraction. The rewriter knows no op by name:
 * an inserted call is a template the rules derive (op, arguments, keyword arguments).
 */

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
  bad: BadEditFact[];
}

/** An edit set with nothing in it. */
export function emptyEdits(): EditSet {
  return { insertCall: [], orphanArgs: [], replaceDeps: [], setKwarg: [], replaceKwarg: [], removeFuncAttr: [], bad: [] };
}

/** The number of edits in a set (rules' bad_edit facts and orphan arguments count, so they are reported). */
export function editCount(e: EditSet): number {
  return e.insertCall.length + e.orphanArgs.length + e.replaceDeps.length + e.setKwarg.length + e.replaceKwarg.length + e.removeFuncAttr.length + e.bad.length;
}
