/**
 * The node ids a pass's result names: the nodes its findings are located at and the nodes its
 * edits anchor on or copy. Reading the result needs those nodes only, so the text parsed again
 * keeps them and lets the rest of its tree go (NodeTable `keep`).
 */
import type { EvalResult } from '../datalog/index.js';

/** What is read of each id from 1 to `size`, one byte each: 0 nothing, SPAN where it is, DEPS where its deps list is, NODE the node. */
export type IdSet = Uint8Array;

/** An id that is only located (a finding's node, an edit's anchor statement). */
export const SPAN = 1;
/** A Submit or scope whose deps list is replaced (replace_deps): where it and its deps list are. */
export const DEPS = 2;
/** An id whose node is read (an edit's call or function, a node an inserted call copies). */
export const NODE = 3;

/**
 * The columns that hold node ids in the relations of rules/edits.dl the pipeline reads, and
 * what of the node is read: the finding's node and a related node, each inserted call's anchor
 * statement and the bad edit's node are located; of the node replace_deps edits, where its deps
 * list is; a node an inserted call's argument copies and the node a set_kwarg / replace_kwarg /
 * remove_func_attr edits are read.
 */
const ID_COLUMNS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [number, number]>]> = [
  ['finding', [[2, SPAN]]],
  ['finding_related', [[2, SPAN]]],
  ['insert_call', [[0, SPAN]]],
  [
    'call_arg',
    [
      [0, SPAN],
      [5, NODE],
    ],
  ],
  [
    'call_kwarg',
    [
      [0, SPAN],
      [5, NODE],
    ],
  ],
  ['replace_deps', [[0, DEPS]]],
  ['set_kwarg', [[0, NODE]]],
  ['replace_kwarg', [[0, NODE]]],
  ['remove_func_attr', [[0, NODE]]],
  [
    'hoist_call',
    [
      [0, SPAN],
      [1, NODE],
    ],
  ],
  ['bad_edit', [[0, SPAN]]],
];

/**
 * What the finding and edit relations of `result` read of each id among 1..`size` (an id out of
 * range names no node and is left out), from the result's rows without building the edits.
 */
export function namedIds(result: EvalResult, size: number): IdSet {
  const ids = new Uint8Array(size + 1);
  for (const [rel, cols] of ID_COLUMNS) {
    if (!result.has(rel)) continue;
    result.forEachTuple(rel, (t) => {
      for (const [c, what] of cols) {
        const v = t[c];
        if (typeof v === 'number' && v >= 1 && v <= size && ids[v]! < what) ids[v] = what;
      }
    });
  }
  return ids;
}

/** True when `result` has a row naming a node (a finding or an edit): reading it needs the tree parsed again. */
export function namesNodes(result: EvalResult): boolean {
  return ID_COLUMNS.some(([rel]) => result.has(rel) && result.size(rel) > 0);
}
