// Plans made before, found again by replaying their choices. A clause's plan depends on the
// relation sizes only through the choices of the next atom to join (plan.ts, Choice): the memo of
// a clause variant is a tree whose nodes are choices (their candidates) and whose edges are the
// candidate picked; an evaluation walks it, picking on its own sizes as buildPlan would, and
// reaches the plan buildPlan would make (and what was compiled from it) without planning or
// generating code again. A path not taken before is planned and added.

import { type Choice, choose } from './plan.js';

interface Node<T> {
  /** The candidates of the choice made here (plan.ts Choice), or null at a leaf. */
  cands: readonly number[] | null;
  kids: (Node<T> | undefined)[];
  leaf: T | undefined;
}

/**
 * Plans a memo holds at most: past it, it starts again empty (a long-lived process — the language
 * server — evaluating many files of many shapes; a few hundred clause variants take a few paths each).
 */
const MAX_PLANS = 20_000;

/** A memo of what was made from plans, by clause variant (a key of the caller's) and the choices of the plan. */
export class PlanMemo<T> {
  private readonly roots = new Map<string, Node<T>>();
  private plans = 0;

  /** How many plans the memo holds. */
  get size(): number {
    return this.plans;
  }

  /** What `put` stored for the plan buildPlan would make of variant `key` with relation sizes `size`, or undefined. */
  get(key: string, size: (rel: number) => number): T | undefined {
    let node = this.roots.get(key);
    while (node !== undefined) {
      if (node.cands === null) return node.leaf;
      node = node.kids[choose(node.cands, size)];
    }
    return undefined;
  }

  /** Stores `value` as what was made of the plan of variant `key` built with `choices`. */
  put(key: string, choices: readonly Choice[], value: T): void {
    if (this.plans >= MAX_PLANS) {
      this.roots.clear();
      this.plans = 0;
    }
    let node = this.roots.get(key);
    if (!node) this.roots.set(key, (node = { cands: null, kids: [], leaf: undefined }));
    for (const c of choices) {
      node.cands ??= c.cands;
      let kid: Node<T> | undefined = node.kids[c.pick];
      if (!kid) node.kids[c.pick] = kid = { cands: null, kids: [], leaf: undefined };
      node = kid;
    }
    if (node.leaf === undefined) this.plans++;
    node.leaf = value;
  }
}
