// Input columns no rule reads: an `.input` relation whose rules only ever match some columns with
// `_` (`span(X, Q, _, _, _)`) need not store them. The program is rewritten so that such a
// relation holds only the columns read (its atoms lose the `_` arguments) and its facts are stored
// projected: fewer bytes a row while facts load and while evaluation holds them. Only for an
// evaluation whose result is read through outputs and kept relations (EvaluateOptions.keep): the
// input relations' own tuples, as explain or a query would show them, are then never read.

import type { ClauseSummary } from '../check/clause-summary.js';
import { isBodilessFact, MemoSlot, type ProgramClause, type RelationInfo, RuleProgram, summaryOf } from '../check/program.js';
import type { Projection } from '../storage/schema.js';
import type { Atom, Clause, Kind, Literal, Term } from '../syntax/ast.js';

/** A program with unread input columns cut, by the kept relations: a memo in the program. */
const PROJECTIONS = new MemoSlot('projections by kept relations', () => new Map<string, RuleProgram>());

/** A term of a clause with every atom of its aggregates over a relation of `keepCols` cut to the columns kept. */
function projectTerm(t: Term, keepCols: ReadonlyMap<string, number[]>): Term {
  const term = (x: Term): Term => projectTerm(x, keepCols);
  switch (t.kind) {
    case 'agg':
      return { ...t, body: projectLiterals(t.body, keepCols), target: t.target ? term(t.target) : null };
    case 'bin':
      return { ...t, left: term(t.left), right: term(t.right) };
    case 'neg':
      return { ...t, arg: term(t.arg) };
    case 'call':
      return { ...t, args: t.args.map(term) };
    default:
      return t;
  }
}

/** `lits` with every atom over a relation of `keepCols` cut to the columns kept. */
function projectLiterals(lits: readonly Literal[], keepCols: ReadonlyMap<string, number[]>): Literal[] {
  const term = (t: Term): Term => projectTerm(t, keepCols);
  const atom = (a: Atom): Atom => {
    const cols = keepCols.get(a.rel);
    const args = a.args.map(term);
    return { ...a, args: cols ? cols.map((c) => args[c]!) : args };
  };
  return lits.map((l): Literal => (l.kind === 'cmp' ? { ...l, left: term(l.left), right: term(l.right) } : { ...l, atom: atom(l.atom) }));
}

/**
 * `program` with every `.input` relation that the rules read only some columns of (the others
 * always `_`) cut to those columns (see the file comment), for an evaluation that keeps only the
 * relations of `keep` and the outputs. Not cut: outputs, kept relations, relations some clause
 * derives (facts in the rule files included), and those a `count` or `sum` aggregate reads
 * (their number of matching rows would change). The same program when nothing is cut.
 */
export function projectInputs(program: RuleProgram, keep: ReadonlySet<string>): RuleProgram {
  const key = [...keep].sort().join('\0');
  const hit = program.memo(PROJECTIONS).get(key);
  if (hit) return hit;
  const derived = new Uint8Array(program.relations.length);
  const used = program.relations.map(() => new Set<number>());
  const counted = new Set<number>();
  // (From each clause's summary: a clause read from compiled rules is not decoded. Loops by
  // index: this runs over every clause and fact of each program read, before V8 optimises it, and
  // a `for...of` there allocates an iterator result per step.)
  const summaries: (ClauseSummary | undefined)[] = [];
  const clauses = program.clauses;
  for (let i = 0; i < clauses.length; i++) {
    const pc = clauses[i]!;
    derived[pc.head] = 1;
    if (isBodilessFact(pc)) continue; // (constants only: no atom)
    const s = summaryOf(pc, program);
    summaries[pc.id] = s;
    for (let j = 0; j < s.reads.length; j++) {
      const read = s.reads[j]!;
      const cols = read[1];
      for (let k = 0; k < cols.length; k++) used[read[0]]!.add(cols[k]!);
      if (read[2]) counted.add(read[0]);
    }
  }
  const keepCols = new Map<string, number[]>();
  const cutById: (number[] | undefined)[] = [];
  const relations = program.relations.map((info): RelationInfo => {
    const n = info.kinds.length;
    const cut = info.input && !info.output && !info.printsize && !keep.has(info.name) && derived[info.id] === 0 && !counted.has(info.id);
    if (!cut || n === 0) return info;
    const columns = [...used[info.id]!].sort((x, y) => x - y);
    if (columns.length === n) return info;
    if (columns.length === 0) columns.push(0); // a relation read only as `r(_, ...)`: one column says whether it has a row
    keepCols.set(info.name, columns);
    cutById[info.id] = columns;
    const projection: Projection = { columns, attrs: info.attrs, types: info.types, kinds: info.kinds };
    return {
      ...info,
      attrs: columns.map((c) => info.attrs[c]!),
      types: columns.map((c) => info.types[c]!),
      kinds: columns.map((c) => info.kinds[c]!),
      projection,
    };
  });
  let out = program;
  if (keepCols.size > 0) {
    // (A clause that reads no relation cut is the same clause.)
    const clauses = program.clauses.map((pc): ProgramClause => {
      const s = summaries[pc.id];
      return s?.reads.some(([id]) => cutById[id] !== undefined) ? new ProjectedClause(pc, keepCols, projectSummary(s, cutById)) : pc;
    });
    // (The same relations read by the same clauses: the dependency edges are the program's.)
    out = new RuleProgram(relations, clauses, program.strata, program.sources, program.edges, program.shared, program.facts);
  }
  program.memo(PROJECTIONS).set(key, out);
  return out;
}

/** A clause of a projected program: the clause of `of` with its atoms cut, made when first read. */
class ProjectedClause implements ProgramClause {
  readonly id: number;
  readonly head: number;
  private made: Clause | undefined;

  constructor(
    private readonly of: ProgramClause,
    private readonly keepCols: ReadonlyMap<string, number[]>,
    readonly summary: ClauseSummary,
  ) {
    this.id = of.id;
    this.head = of.head;
  }

  /** The projected clause, the same object on every read. */
  get clause(): Clause {
    if (!this.made) {
      const c = this.of.clause;
      const head = { ...c.head, args: c.head.args.map((t) => projectTerm(t, this.keepCols)) };
      this.made = { ...c, head, body: projectLiterals(c.body, this.keepCols) };
    }
    return this.made;
  }

  /** The variables' kinds: the clause's (cutting atoms drops no variable's kind). */
  get varKinds(): Map<string, Kind> {
    return this.of.varKinds;
  }
}

/** `s` for the clause with its atoms over the relations cut cut to their columns kept (`cutById`, renumbered). */
function projectSummary(s: ClauseSummary, cutById: readonly (number[] | undefined)[]): ClauseSummary {
  const reads = s.reads.map(([id, cols, counted]): [number, number[], boolean] => {
    const kept = cutById[id];
    return [id, kept ? cols.map((c) => kept.indexOf(c)) : cols, counted];
  });
  return { ...s, reads };
}
