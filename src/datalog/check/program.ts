// The checked program: relations, clauses (aggregate-local variables renamed) and strata.
import type { Location } from '../../report/diagnostic.js';
import type { SourceText } from '../../report/source.js';
import type { Arena } from '../storage/arena.js';
import { FactDatabase } from '../storage/database.js';
import type { RelationSchema } from '../storage/schema.js';
import type { Clause, Kind } from '../syntax/ast.js';
import { type ClauseSummary, summarize } from './clause-summary.js';
import { type FactTable, PackedFact } from './fact-table.js';
import { type DepEdge, dependencyEdges } from './stratify.js';

/** A declared relation of the checked program: its schema (what storage reads), where it is declared, its I/O directives. */
export interface RelationInfo extends RelationSchema {
  loc: Location;
  output: boolean;
  printsize: boolean;
}

export interface ProgramClause {
  id: number;
  clause: Clause;
  head: number;
  /** The kind of every variable of the clause (aggregate locals renamed `X@n`). */
  varKinds: Map<string, Kind>;
  /**
   * What the clause's syntax tree says of its relations, head and kind (clause-summary.ts), when
   * known without reading `clause` (a clause read from compiled rules: its tree is decoded on
   * first read). Read it with summaryOf.
   */
  readonly summary?: ClauseSummary;
}

/** The summary of `pc`: the one it carries, else computed from its clause (relations numbered as `program`'s). */
export function summaryOf(pc: ProgramClause, program: RuleProgram): ClauseSummary {
  return pc.summary ?? summarize(pc.clause, (rel) => program.byName.get(rel)?.id);
}

/** Whether `pc` is a fact (isFact), without making a packed fact's clause (see FactTable) or decoding a summarized one. */
export function isFactClause(pc: ProgramClause): boolean {
  return pc instanceof PackedFact || (pc.summary ? pc.summary.fact : pc.clause.isFact);
}

/** Whether `pc` is a fact with no body (constants only), without making a packed fact's clause or decoding a summarized one. */
export function isBodilessFact(pc: ProgramClause): boolean {
  if (pc instanceof PackedFact) return true;
  const s = pc.summary;
  return s ? s.fact && s.bodyLength === 0 : pc.clause.isFact && pc.clause.body.length === 0;
}

export interface Stratum {
  /** Relation ids of this strongly connected component. */
  relations: number[];
  /** True when some relation depends on itself (directly or through the others). */
  recursive: boolean;
  /** Clause ids whose head is in this stratum. */
  clauses: number[];
}

/**
 * A typed place in every RuleProgram where a later stage keeps what it computed from the program
 * (compiled join plans, projections): the program holds the values without knowing their types,
 * so it imports nothing of the stages that read it. Create one slot per cache, as a module constant.
 */
export class MemoSlot<T> {
  constructor(
    /** What the slot holds, for a reader of the code. */
    readonly name: string,
    /** The slot's initial value in a program (an empty map, usually). */
    readonly make: (program: RuleProgram) => T,
    /**
     * True when what the slot holds does not depend on the program (compiled code by its text):
     * programs made with one `shared` store (RuleProgram) then hold one value.
     */
    readonly acrossPrograms = false,
  ) {}
}

/** Where programs keep the values of their `acrossPrograms` slots together (see RuleProgram). */
export type SharedMemos = Map<MemoSlot<unknown>, unknown>;

/** A rule program that passed every static check; evaluate it with `evaluate`. */
export class RuleProgram {
  readonly byName: Map<string, RelationInfo>;
  /** What later stages computed from this program (see MemoSlot), by slot. */
  private readonly memos = new Map<MemoSlot<unknown>, unknown>();

  private edgeMemo: readonly DepEdge[] | undefined;

  constructor(
    readonly relations: RelationInfo[],
    readonly clauses: ProgramClause[],
    readonly strata: Stratum[],
    readonly sources: SourceText[],
    edges?: readonly DepEdge[],
    /** The store of the `acrossPrograms` slots, when this program shares them with others (the programs one caller loads). */
    readonly shared?: SharedMemos,
    /**
     * When given, every fact of the program, packed (the clauses of its PackedFacts are among
     * `clauses`, and no other clause is a fact): what evaluation loads (a program read from
     * compiled rules has one).
     */
    readonly facts?: FactTable,
  ) {
    this.byName = new Map(relations.map((r) => [r.name, r]));
    this.edgeMemo = edges;
  }

  /** Every dependency edge head → body relation of the clauses (stratify.ts's dependencyEdges, computed once). */
  get edges(): readonly DepEdge[] {
    this.edgeMemo ??= dependencyEdges(this.clauses, (rel) => this.byName.get(rel)?.id ?? -1);
    return this.edgeMemo;
  }

  /** The value of `slot` for this program, made by the slot on first use and kept as long as the program. */
  memo<T>(slot: MemoSlot<T>): T {
    const memos = slot.acrossPrograms && this.shared ? this.shared : this.memos;
    if (memos.has(slot)) return memos.get(slot) as T;
    const v = slot.make(this);
    memos.set(slot, v);
    return v;
  }

  /** The relation named `name`, or undefined. */
  relation(name: string): RelationInfo | undefined {
    return this.byName.get(name);
  }

  /** An empty database of facts for this program's relations; its large arrays come from `arena` (default: its own). */
  newDatabase(arena?: Arena): FactDatabase {
    return new FactDatabase(this, arena);
  }
}
