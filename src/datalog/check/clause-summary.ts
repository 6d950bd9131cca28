// What evaluation and the loaders read of every clause before deciding whether to read the clause
// itself: its relations, whether it is a fact, its head's source and string constants. A program
// read from compiled rules stores it per clause (computed from the syntax tree when the entry was
// written), so that a clause's tree is decoded only when something reads it.
import type { SourceText } from '../../report/source.js';
import type { Atom, Clause, Literal, Term } from '../syntax/ast.js';

/** The summary of one clause (see the file comment): each field is what the clause's syntax tree says. */
export interface ClauseSummary {
  /** `clause.isFact`. */
  fact: boolean;
  /** `clause.body.length`. */
  bodyLength: number;
  /** The relation ids of the body's top-level positive atoms, in body order. */
  positive: number[];
  /**
   * Per relation an atom of the clause reads (positive, negated, in an aggregate of the body or
   * the head), in the order first read: its id, the columns some atom gives other than `_`
   * (ascending), and whether a `count` or `sum` body reads it.
   */
  reads: [number, number[], boolean][];
  /** The source of the head (`clause.head.loc.source`). */
  source: SourceText;
  /** Each head argument's value when it is a string constant, else null. */
  headStrings: (string | null)[];
}

/**
 * Calls `f` on every atom of `lits` and of the aggregates in `terms` (positive, negated, in
 * aggregate bodies), with whether it is in a count or sum body.
 */
export function eachAtom(lits: readonly Literal[], terms: readonly Term[], f: (a: Atom, counted: boolean) => void, counted = false): void {
  const term = (t: Term | null): void => {
    if (!t) return;
    if (t.kind === 'agg') {
      eachAtom(t.body, [], f, counted || t.op === 'count' || t.op === 'sum');
      term(t.target);
    } else if (t.kind === 'bin') {
      term(t.left);
      term(t.right);
    } else if (t.kind === 'neg') term(t.arg);
    else if (t.kind === 'call') t.args.forEach(term);
  };
  terms.forEach(term);
  for (const l of lits) {
    if (l.kind === 'cmp') {
      term(l.left);
      term(l.right);
    } else {
      f(l.atom, counted);
      l.atom.args.forEach(term);
    }
  }
}

/** The summary of `clause`, relations numbered by `relId` (a relation it does not know: left out of `reads`, -1 in `positive`). */
export function summarize(clause: Clause, relId: (name: string) => number | undefined): ClauseSummary {
  const positive: number[] = [];
  for (const l of clause.body) if (l.kind === 'atom') positive.push(relId(l.atom.rel) ?? -1);
  const reads: [number, number[], boolean][] = [];
  const byRel = new Map<number, [number, Set<number>, boolean]>();
  eachAtom(clause.body, clause.head.args, (a, counted) => {
    const id = relId(a.rel);
    if (id === undefined) return;
    let r = byRel.get(id);
    if (!r) byRel.set(id, (r = [id, new Set(), false]));
    a.args.forEach((t, i) => {
      if (t.kind !== 'wildcard') r[1].add(i);
    });
    r[2] ||= counted;
  });
  for (const [id, cols, counted] of byRel.values()) reads.push([id, [...cols].sort((x, y) => x - y), counted]);
  return {
    fact: clause.isFact,
    bodyLength: clause.body.length,
    positive,
    reads,
    source: clause.head.loc.source,
    headStrings: clause.head.args.map((t) => (t.kind === 'str' ? t.value : null)),
  };
}
