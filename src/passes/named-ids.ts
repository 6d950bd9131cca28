/**
 * The node ids a pass's result names: the nodes its findings are located at and the nodes its
 * edits anchor on or copy. Reading the result needs those nodes only, so the text parsed again
 * keeps them and lets the rest of its tree go (NodeTable `keep`).
 */
import type { EvalResult } from '../datalog/index.js';

/** A set of ids from 1 to `size`: one byte each. */
export type IdSet = Uint8Array;

/**
 * The columns that hold node ids in the relations of rules/edits.dl the pipeline reads: the
 * finding's node and a related node, each edit's anchor statement, call, function or node, and
 * the node an inserted call's argument copies.
 */
const ID_COLUMNS: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['finding', [2]],
  ['finding_related', [2]],
  ['insert_call', [0]],
  ['call_arg', [0, 5]],
  ['call_kwarg', [0, 5]],
  ['replace_deps', [0]],
  ['set_kwarg', [0]],
  ['replace_kwarg', [0]],
  ['remove_func_attr', [0]],
  ['bad_edit', [0]],
];

/**
 * The ids among 1..`size` that the finding and edit relations of `result` name (an id out of
 * range names no node and is left out), read from the result's rows without building the edits.
 */
export function namedIds(result: EvalResult, size: number): IdSet {
  const ids = new Uint8Array(size + 1);
  for (const [rel, cols] of ID_COLUMNS) {
    if (!result.has(rel)) continue;
    result.forEachTuple(rel, (t) => {
      for (const c of cols) {
        const v = t[c];
        if (typeof v === 'number' && v >= 1 && v <= size) ids[v] = 1;
      }
    });
  }
  return ids;
}

/** True when `result` has a row naming a node (a finding or an edit): reading it needs the tree parsed again. */
export function namesNodes(result: EvalResult): boolean {
  return ID_COLUMNS.some(([rel]) => result.has(rel) && result.size(rel) > 0);
}
