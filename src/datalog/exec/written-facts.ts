// The facts written in a program's rule files, prepared once per program, and their loading into
// each evaluation's relations.
import { MemoSlot, type ProgramClause, type RuleProgram } from '../check/program.js';
import { hashString, type SymbolTable } from '../storage/symbols.js';
import { factOffsets } from './fact-rows.js';

/**
 * The facts written in a program's rule files (an op catalog of two thousand), prepared once per
 * program: every evaluation loads them, and encoding each argument (a bigint, a string to intern)
 * per file cost more than the rules on a small kernel. `plain` when every argument is a string or
 * a number within ±(2^53 - 1) (their encoding is the same in every database but for the strings'
 * ids): flat `values` (a number, or for a string its index in `strings`), `starts` per fact.
 */
export interface WrittenFacts {
  clauses: readonly ProgramClause[];
  /** The relations facts are written for. */
  rels: Set<number>;
  plain: boolean;
  strings: readonly string[];
  /** hashString of each of `strings`. */
  hashes: Int32Array;
  heads: Int32Array;
  clauseIds: Int32Array;
  starts: Int32Array;
  values: Float64Array;
  isString: Uint8Array;
  /** The largest arity. */
  width: number;
  /** Where each relation's facts start among all of them (see FactRows). */
  offsets: Int32Array;
}

export const WRITTEN_FACTS = new MemoSlot('facts written in the rule files', (program: RuleProgram): WrittenFacts => {
  // Packed already (a program read from compiled rules): no fact's clause is made.
  const t = program.facts;
  if (t) {
    const { clauses, strings, heads, clauseIds, starts, values, isString, width } = t;
    const hashes = Int32Array.from(strings, hashString);
    const offsets = factOffsets(heads, program.relations.length);
    return { clauses, rels: new Set(heads), plain: true, strings, hashes, heads, clauseIds, starts, values, isString, width, offsets };
  }
  const clauses = program.clauses.filter((c) => c.clause.isFact);
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const values: number[] = [];
  const isString: number[] = [];
  const starts = [0];
  let plain = true;
  let width = 0;
  for (const pc of clauses) {
    const args = pc.clause.head.args;
    width = Math.max(width, args.length);
    for (const a of args) {
      if (a.kind === 'str') {
        let i = stringIndex.get(a.value);
        if (i === undefined) {
          i = strings.push(a.value) - 1;
          stringIndex.set(a.value, i);
        }
        values.push(i);
        isString.push(1);
      } else if (a.kind === 'num' && a.value >= -SAFE_BIG && a.value <= SAFE_BIG) {
        values.push(Number(a.value) + 0);
        isString.push(0);
      } else plain = false;
    }
    starts.push(values.length);
  }
  const heads = Int32Array.from(clauses, (c) => c.head);
  return {
    clauses,
    rels: new Set(heads),
    plain,
    strings,
    hashes: Int32Array.from(strings, hashString),
    heads,
    clauseIds: Int32Array.from(clauses, (c) => c.id),
    starts: Int32Array.from(starts),
    values: Float64Array.from(values),
    isString: Uint8Array.from(isString),
    width,
    offsets: factOffsets(heads, program.relations.length),
  };
});

/** The integers a double holds exactly, as bigints (a fact's number within them is stored as itself). */
const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Adds the packed facts of the rule files (every argument a string or a plain number) through
 * `addFact`: the strings interned once each, in the order their first use would intern them (the
 * same ids as argument by argument). Its own function: its loops, hot in every evaluation, are
 * optimised apart from the rest of `evaluate` (run once per evaluation).
 */
export function loadPackedFacts(
  facts: WrittenFacts,
  symbols: SymbolTable,
  addFact: (head: number, clauseId: number, t: Float64Array) => void,
): void {
  const ids = new Float64Array(facts.strings.length);
  for (let i = 0; i < ids.length; i++) ids[i] = symbols.internHashed(facts.strings[i]!, facts.hashes[i]!);
  // (One tuple array for every fact: a relation reads the first `arity` values.)
  const t = new Float64Array(Math.max(1, facts.width));
  const { heads, clauseIds, starts, values, isString } = facts;
  for (let f = 0; f < heads.length; f++) {
    const from = starts[f]!;
    const n = starts[f + 1]! - from;
    for (let j = 0; j < n; j++) {
      const v = values[from + j]!;
      t[j] = isString[from + j] === 1 ? ids[v]! : v;
    }
    addFact(heads[f]!, clauseIds[f]!, t);
  }
}
