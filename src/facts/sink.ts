/** A value in a fact tuple: a Soufflé `number` or `symbol`. */
export type FactValue = number | string;

/** Where the extractor puts facts: one call per tuple, relation named as in rules/schema.dl. */
export interface FactSink {
  add(relation: string, tuple: readonly FactValue[]): void;
  /**
   * False when the sink drops every tuple of `relation` (the extractor may then skip computing
   * them); absent means every relation is kept.
   */
  wants?(relation: string): boolean;
}

/** A sink that keeps tuples in memory, grouped by relation (tests, `ptolog facts`). */
export class MemorySink implements FactSink {
  readonly relations = new Map<string, FactValue[][]>();

  add(relation: string, tuple: readonly FactValue[]): void {
    let rows = this.relations.get(relation);
    if (!rows) this.relations.set(relation, (rows = []));
    rows.push([...tuple]);
  }

  /** The tuples of one relation (empty when none were added). */
  get(relation: string): FactValue[][] {
    return this.relations.get(relation) ?? [];
  }
}
