// Which rows of an evaluation's relations come from facts written in the rule files, and from
// which clause: per relation, the row of its first such fact and the clause of each one after it
// (typed arrays: an op catalog of two thousand facts is loaded into every evaluation).
import type { FactRowClauses } from '../provenance/provenance.js';

/** The fact rows of one evaluation; `offsets[r]` is where relation r's clauses start (offsets[n]: every fact). */
export class FactRows implements FactRowClauses {
  /** The row of each relation's first fact (when `added` is not 0). */
  private readonly first: Int32Array;
  /** How many facts each relation received. */
  private readonly added: Int32Array;
  /** The clause of each fact row, relation r's from offsets[r]. */
  private readonly clauseIds: Int32Array;

  constructor(private readonly offsets: Int32Array) {
    const n = offsets.length - 1;
    this.first = new Int32Array(n);
    this.added = new Int32Array(n);
    this.clauseIds = new Int32Array(offsets[n]!);
  }

  /** Records that fact clause `clauseId` added row `row` of `rel`: a relation's fact rows follow one another. */
  add(rel: number, row: number, clauseId: number): void {
    const k = this.added[rel]!;
    if (k === 0) this.first[rel] = row;
    else if (row !== this.first[rel]! + k) throw new Error(`fact row ${row} of relation ${rel} does not follow the last`);
    this.clauseIds[this.offsets[rel]! + k] = clauseId;
    this.added[rel] = k + 1;
  }

  /** `add` of rows first, first + 1, ... of `rel` from the clauses `clauseIds` (its first fact rows), in one call. */
  addRows(rel: number, first: number, clauseIds: Int32Array): void {
    if (this.added[rel] !== 0) throw new Error(`relation ${rel} has fact rows already`);
    if (clauseIds.length === 0) return;
    this.first[rel] = first;
    this.clauseIds.set(clauseIds, this.offsets[rel]!);
    this.added[rel] = clauseIds.length;
  }

  clauseOf(rel: number, row: number): number | undefined {
    if (!(rel >= 0 && rel < this.added.length)) return undefined;
    const i = row - this.first[rel]!;
    return i >= 0 && i < this.added[rel]! ? this.clauseIds[this.offsets[rel]! + i] : undefined;
  }
}

/** The offsets of FactRows for facts of relations `heads` (one per fact) among `relations` relations. */
export function factOffsets(heads: ArrayLike<number>, relations: number): Int32Array {
  const offsets = new Int32Array(relations + 1);
  for (let f = 0; f < heads.length; f++) offsets[heads[f]! + 1]!++;
  for (let r = 0; r < relations; r++) offsets[r + 1]! += offsets[r]!;
  return offsets;
}
