// The facts written in the rule files are loaded in bulk (written-facts.ts loadPackedFacts): a
// relation's rows appended without a dedup set, the facts that repeat an earlier one known once
// (per stored run of facts, or per program) and skipped. What an evaluation derives, explains and
// refuses (--max-tuples) is what loading them one by one gave.
import { test as fcTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateFacts } from '../../src/datalog/check/fact-duplicates.js';
import { FactRows } from '../../src/datalog/exec/fact-rows.js';
import { loadPackedFacts, WRITTEN_FACTS } from '../../src/datalog/exec/written-facts.js';
import { evaluate, formatProof, loadProgram, type RuleProgram } from '../../src/datalog/index.js';
import { type CheckedRules, fromPlain, type PlainRules, toPlain } from '../../src/datalog/plan/compiled.js';
import { Relation } from '../../src/datalog/storage/relation.js';
import { SymbolTable } from '../../src/datalog/storage/symbols.js';
import { runs } from '../runs.js';

/** The program stored and read back (its facts packed in runs, one per file), with the sources of the original. */
function roundTrip(r: CheckedRules): CheckedRules {
  const plain = JSON.parse(JSON.stringify(toPlain(r))) as PlainRules;
  const byPath = new Map(r.program.sources.map((s) => [s.path, s]));
  return fromPlain(plain, (p) => byPath.get(p)!);
}

interface Case {
  rels: boolean[][];
  items: { rel: number; file: number; kind: number; args: [string, number][] }[];
  inputs: { rel: number; args: [string, number][] }[];
  maxTuples: number | null;
}

// Few distinct values: facts repeat one another, in one file and across the two.
const value = fc.tuple(fc.constantFrom('a', 'b', 'é'), fc.constantFrom(0, 1, -2, 2 ** 40));
const caseOf: fc.Arbitrary<Case> = fc.record({
  rels: fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }),
  items: fc.array(fc.record({ rel: fc.nat(), file: fc.nat(1), kind: fc.nat(3), args: fc.array(value, { minLength: 2, maxLength: 2 }) }), {
    maxLength: 30,
  }),
  inputs: fc.array(fc.record({ rel: fc.nat(), args: fc.array(value, { minLength: 2, maxLength: 2 }) }), { maxLength: 6 }),
  maxTuples: fc.option(fc.integer({ min: 1, max: 6 })),
});

/**
 * Per relation i: r_i (facts, and derived into from in_i), in_i (an input relation with facts
 * too), c_i (an output copying r_i); facts and rules spread over two files.
 */
function programOf(c: Case): CheckedRules {
  const files = [
    c.rels
      .map((cols, i) => {
        const attrs = cols.map((s, j) => `a${j}: ${s ? 'symbol' : 'number'}`).join(', ');
        return `.decl r${i}(${attrs})\n.decl in${i}(${attrs})\n.input in${i}\n.decl c${i}(${attrs})\n.output c${i}\n`;
      })
      .join(''),
    '',
  ];
  for (const it of c.items) {
    const i = it.rel % c.rels.length;
    const cols = c.rels[i]!;
    const vars = cols.map((_, j) => `X${j}`).join(', ');
    const args = cols.map((s, j) => (s ? JSON.stringify(it.args[j]![0]) : String(it.args[j]![1]))).join(', ');
    const clause = [`r${i}(${args}).`, `in${i}(${args}).`, `r${i}(${vars}) :- in${i}(${vars}).`, `c${i}(${vars}) :- r${i}(${vars}).`][
      it.kind
    ]!;
    files[it.file] += `${clause}\n`;
  }
  return loadProgram([
    { path: 'a.dl', text: files[0]! },
    { path: 'b.dl', text: files[1]! },
  ]);
}

/** Every relation's tuples in row order, and each tuple's proof; or the error that stopped the evaluation. */
function run(p: RuleProgram, c: Case): unknown {
  const db = p.newDatabase();
  for (const it of c.inputs) {
    const i = it.rel % c.rels.length;
    db.insert(
      `in${i}`,
      c.rels[i]!.map((s, j) => (s ? it.args[j]![0] : BigInt(it.args[j]![1]))),
    );
  }
  try {
    const res = evaluate(p, db, { prune: false, ...(c.maxTuples === null ? {} : { maxTuples: c.maxTuples }) });
    return p.relations.map((r) => {
      const rows = res.tuples(r.name);
      return [r.name, rows, rows.map((t) => formatProof(res.explain(r.name, t)!))];
    });
  } catch (e) {
    return String(e);
  }
}

/** `p` with its facts loaded one by one (no relation in bulk): the reference. */
function oneByOne(p: RuleProgram): RuleProgram {
  p.memo(WRITTEN_FACTS).bulk.fill(0);
  return p;
}

describe('facts loaded in bulk', () => {
  fcTest.prop([caseOf], runs(200))('derive, explain and stop at --max-tuples as facts loaded one by one', (c) => {
    const expected = run(oneByOne(programOf(c).program), c);
    expect(run(programOf(c).program, c)).toEqual(expected);
    // Stored and read back: the repeats known per run of facts (one per file).
    expect(run(roundTrip(programOf(c)).program, c)).toEqual(expected);
    expect(run(oneByOne(roundTrip(programOf(c)).program), c)).toEqual(expected);
  });

  it('a relation of facts gets its rows without a dedup set, its repeats skipped, each row its clause', () => {
    const text = `.decl op(n: symbol, k: number)
.output op
op("add", 2).
op("neg", 1).
op("add", 2).
op("mul", 2).
`;
    for (const program of [loadProgram([{ path: 'ops.dl', text }]).program, roundTrip(loadProgram([{ path: 'ops.dl', text }])).program]) {
      const facts = program.memo(WRITTEN_FACTS);
      const id = program.byName.get('op')!.id;
      expect([...facts.dup]).toEqual([0, 0, 1, 0]);
      expect(facts.bulk[id]).toBe(1);
      const rels = program.relations.map((r) => new Relation(r.kinds.length, 0));
      const rows = new FactRows(facts.offsets);
      const symbols = new SymbolTable();
      loadPackedFacts(facts, symbols, rels, rows);
      const op = rels[id]!;
      expect([0, 1, 2].map((r) => op.row(r))).toEqual([
        [symbols.intern('add'), 2],
        [symbols.intern('neg'), 1],
        [symbols.intern('mul'), 2],
      ]);
      expect(op.count).toBe(3);
      // No dedup set: the rows alone.
      expect(op.bytes).toBe(op.data.byteLength);
      expect([0, 1, 2, 3].map((r) => rows.clauseOf(id, r))).toEqual([...[0, 1, 3].map((k) => facts.clauses[k]!.id), undefined]);
      // A later addition builds the set: a repeat is refused, a new tuple added.
      expect(op.add([symbols.intern('neg'), 1], 1)).toBe(false);
      expect(op.add([symbols.intern('neg'), 2], 1)).toBe(true);
      expect(op.count).toBe(4);
      expect(op.heightOf(2)).toBe(0);
      expect(op.heightOf(3)).toBe(1);
    }
  });

  it('duplicateFacts: a repeat is the same relation with the same arguments, strings and numbers apart', () => {
    // Facts: r0(s0, 1), r0(s0, 1), r1(s0, 1), r0(1, 1) with the first argument a number, r0(s0, 2).
    const heads = Int32Array.of(0, 0, 1, 0, 0);
    const starts = Int32Array.of(0, 2, 4, 6, 8, 10);
    const values = Float64Array.of(0, 1, 0, 1, 0, 1, 0, 1, 0, 2);
    const isString = Uint8Array.of(1, 0, 1, 0, 1, 0, 0, 0, 1, 0);
    expect([...duplicateFacts(heads, starts, values, isString)]).toEqual([0, 1, 0, 0, 0]);
    expect([...duplicateFacts(heads, starts, values, isString, (r) => r !== 0)]).toEqual([0, 0, 0, 0, 0]);
  });
});
