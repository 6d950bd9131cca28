/**
 * The edit vocabulary (declared for rules in rules/edits.dl): the only changes rules can ask
 * the rewriter for. Ids are node ids from fact extraction.
 */

/** insert_after(s, ord, marker, dst, shape): a marker statement after statement s. */
export interface InsertAfterEdit {
  stmt: number;
  ord: number;
  marker: 'cacheinvalid_region' | 'cacheinvalid_all' | 'fence';
  /** Name expression whose variable the region marker names (0 when none). */
  dst: number;
  /** Tensor type node whose dimensions give the region shape (0 when none). */
  shape: number;
}

/** insert_barrier(s, ord, name, array): `name = pl.system.task_dummy(deps=[array])` before loop s. */
export interface InsertBarrierEdit {
  loop: number;
  ord: number;
  name: string;
  array: number;
}

/** replace_deps(c, name): the deps list of Submit / task-launch scope c becomes `[name]`. */
export interface ReplaceDepsEdit {
  node: number;
  name: string;
}

/** set_kwarg(c, key, value): add keyword `key=value` (DSL text) to call c. */
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

/** Every edit derived by a pass, grouped by kind. */
export interface EditSet {
  insertAfter: InsertAfterEdit[];
  insertBarrier: InsertBarrierEdit[];
  replaceDeps: ReplaceDepsEdit[];
  setKwarg: SetKwargEdit[];
  removeFuncAttr: RemoveFuncAttrEdit[];
}

/** An edit set with nothing in it. */
export function emptyEdits(): EditSet {
  return { insertAfter: [], insertBarrier: [], replaceDeps: [], setKwarg: [], removeFuncAttr: [] };
}

/** The number of edits in a set. */
export function editCount(e: EditSet): number {
  return e.insertAfter.length + e.insertBarrier.length + e.replaceDeps.length + e.setKwarg.length + e.removeFuncAttr.length;
}

