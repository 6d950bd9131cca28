// The facts of a rule program packed in flat arrays (an op catalog of two thousand): the form the
// evaluator loads them in, made without building a syntax tree per fact. Each fact's Clause, with
// its locations, is made the first time something reads it (a proof, a diagnostic about it).
import type { Location } from '../../report/diagnostic.js';
import type { SourceText } from '../../report/source.js';
import type { Clause, Kind, Term } from '../syntax/ast.js';
import type { KnownDuplicates } from './fact-duplicates.js';

/**
 * What a FactTable is made of, one fact after another in clause order (its maker has checked
 * every index and offset: a table never fails to make a clause). Every argument is a string or a
 * number within ±(2^53 - 1).
 */
export interface PackedFacts {
  /** The strings of the arguments, in the order of their first use. */
  strings: readonly string[];
  /** Per fact: its clause id (increasing), its relation's id, the index of its source. */
  clauseIds: Int32Array;
  heads: Int32Array;
  sources: Int32Array;
  /** Per fact, 6 offsets into its source: the clause's start and end, the head's, the relation name's. */
  locs: Int32Array;
  /** Where each fact's arguments start in `values` (one more entry than facts). */
  starts: Int32Array;
  /** Per argument: a number, or for a string its index in `strings` (`isString` 1). */
  values: Float64Array;
  isString: Uint8Array;
  /** Per argument, its start and end offsets. */
  argLocs: Int32Array;
  /** Which facts repeat an earlier one, when its maker compared them (see KnownDuplicates). */
  known?: KnownDuplicates;
  /** hashString of each of `strings`, when its maker computed them. */
  hashes?: Int32Array;
  /** Per relation, 1 when every number of its facts fits 32 bits, when its maker looked. */
  narrow?: Uint8Array;
}

/** One fact of a FactTable as a program clause (RuleProgram's ProgramClause): its clause is made on first read. */
export class PackedFact {
  private made: Clause | undefined;

  constructor(
    private readonly table: FactTable,
    /** Its position in the table. */
    readonly index: number,
    readonly id: number,
    readonly head: number,
    /** A fact has no variables: the facts of a table share one empty map of their kinds (only ever read). */
    readonly varKinds: Map<string, Kind>,
  ) {}

  /** The fact's clause, the same object on every read. */
  get clause(): Clause {
    this.made ??= this.table.clauseAt(this.index);
    return this.made;
  }
}

/** The packed facts of one program (see PackedFacts), and their clauses made on demand. */
export class FactTable {
  readonly strings: readonly string[];
  readonly clauseIds: Int32Array;
  readonly heads: Int32Array;
  readonly starts: Int32Array;
  readonly values: Float64Array;
  readonly isString: Uint8Array;
  /** The largest number of arguments of a fact. */
  readonly width: number;
  /** As PackedFacts's. */
  readonly known: KnownDuplicates | undefined;
  readonly hashes: Int32Array | undefined;
  readonly narrow: Uint8Array | undefined;
  /** The facts as program clauses, in table order. */
  readonly clauses: readonly PackedFact[];

  constructor(
    private readonly packed: PackedFacts,
    /** The program's sources (PackedFacts.sources indexes them) and each relation's name by id. */
    private readonly sourceList: readonly SourceText[],
    private readonly relNames: readonly string[],
    /** Fact clauses made before (by source, then start offset): an equal fact is that clause, not a copy (see fromPlain). */
    private readonly memo?: WeakMap<SourceText, Map<number, Clause>>,
  ) {
    this.strings = packed.strings;
    this.clauseIds = packed.clauseIds;
    this.heads = packed.heads;
    this.starts = packed.starts;
    this.values = packed.values;
    this.isString = packed.isString;
    this.known = packed.known;
    this.hashes = packed.hashes;
    this.narrow = packed.narrow;
    let width = 0;
    const clauses: PackedFact[] = [];
    const noVars = new Map<string, Kind>();
    for (let i = 0; i < packed.clauseIds.length; i++) {
      width = Math.max(width, packed.starts[i + 1]! - packed.starts[i]!);
      clauses.push(new PackedFact(this, i, packed.clauseIds[i]!, packed.heads[i]!, noVars));
    }
    this.width = width;
    this.clauses = clauses;
  }

  /** The clause of fact `i` (an equal one made before when the memo has it). */
  clauseAt(i: number): Clause {
    const source = this.sourceList[this.packed.sources[i]!]!;
    const l = this.packed.locs;
    const o = 6 * i;
    let known = this.memo?.get(source);
    const seen = known?.get(l[o]!);
    if (seen && this.same(seen, i)) return seen;
    const loc = (start: number, end: number): Location => ({ source, start, end });
    const args: Term[] = [];
    const { values, isString, argLocs } = this.packed;
    for (let j = this.starts[i]!; j < this.starts[i + 1]!; j++) {
      const at = loc(argLocs[2 * j]!, argLocs[2 * j + 1]!);
      const v = values[j]!;
      args.push(isString[j] === 1 ? { kind: 'str', value: this.strings[v]!, loc: at } : { kind: 'num', value: BigInt(v), loc: at });
    }
    const clause: Clause = {
      head: { rel: this.relNames[this.heads[i]!]!, args, loc: loc(l[o + 2]!, l[o + 3]!), nameLoc: loc(l[o + 4]!, l[o + 5]!) },
      body: [],
      loc: loc(l[o]!, l[o + 1]!),
      isFact: true,
    };
    if (this.memo) {
      if (!known) this.memo.set(source, (known = new Map()));
      known.set(l[o]!, clause);
    }
    return clause;
  }

  /** Whether clause `c` (of fact `i`'s source, at its start) is what fact `i` makes. */
  private same(c: Clause, i: number): boolean {
    const h = c.head;
    const l = this.packed.locs;
    const o = 6 * i;
    const from = this.starts[i]!;
    if (!c.isFact || c.body.length > 0 || h.rel !== this.relNames[this.heads[i]!] || h.args.length !== this.starts[i + 1]! - from)
      return false;
    if (
      c.loc.end !== l[o + 1] ||
      h.loc.start !== l[o + 2] ||
      h.loc.end !== l[o + 3] ||
      h.nameLoc.start !== l[o + 4] ||
      h.nameLoc.end !== l[o + 5]
    )
      return false;
    const { values, isString, argLocs } = this.packed;
    return h.args.every((a, k) => {
      const j = from + k;
      if (a.loc.start !== argLocs[2 * j] || a.loc.end !== argLocs[2 * j + 1]) return false;
      if (isString[j] === 1) return a.kind === 'str' && a.value === this.strings[values[j]!];
      return a.kind === 'num' && a.value === BigInt(values[j]!);
    });
  }
}
