// The facts of a compiled program are stored packed (src/datalog/plan/compiled-facts.ts) and read
// back without a syntax tree per fact (check/fact-table.ts): what is read back is the program that
// was stored, each fact's clause made on first read, and stored facts that are not well formed
// are refused (BadCompiledRules), never half trusted.
import { test as fcTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedFact } from '../../src/datalog/check/fact-table.js';
import type { RuleProgram } from '../../src/datalog/index.js';
import { evaluate, formatProof, loadProgram } from '../../src/datalog/index.js';
import { BadCompiledRules, type CheckedRules, fromPlain, type PlainRules, toPlain } from '../../src/datalog/plan/compiled.js';
import type { PlainFacts } from '../../src/datalog/plan/compiled-facts.js';
import { runs } from '../runs.js';

/** The program stored and read back (through JSON text, as the cache does), with the sources of the original. */
function roundTrip(r: CheckedRules): { read: CheckedRules; plain: PlainRules } {
  const plain = JSON.parse(JSON.stringify(toPlain(r))) as PlainRules;
  const byPath = new Map(r.program.sources.map((s) => [s.path, s]));
  const read = fromPlain(JSON.parse(JSON.stringify(plain)) as PlainRules, (p) => byPath.get(p)!);
  return { read, plain };
}

/** Everything a program is, each fact's clause made. */
function view(r: CheckedRules) {
  const p = r.program;
  return {
    relations: p.relations,
    strata: p.strata,
    edges: p.edges,
    sources: p.sources,
    warnings: r.warnings,
    clauses: p.clauses.map((pc) => ({ id: pc.id, head: pc.head, varKinds: pc.varKinds, clause: pc.clause })),
  };
}

/** Every output's tuples, and the proof of each one's first tuple. */
function outputs(p: RuleProgram): unknown {
  const res = evaluate(p, p.newDatabase());
  return p.relations
    .filter((r) => r.output)
    .map((r) => {
      const rows = res.tuples(r.name);
      return [r.name, rows, rows[0] ? formatProof(res.explain(r.name, rows[0])!) : null];
    });
}

// Strings with what a rule file escapes, and beyond the BMP.
const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '"', '\\', 'é', '→', '😀', '_'), maxLength: 5 });
const number = fc.oneof(fc.integer({ min: -1000, max: 1000 }).map(BigInt), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));
const gap = fc.constantFrom(' ', '\n', '  // a comment\n', ' /* x */ ', '');
const caseOf: fc.Arbitrary<Case> = fc.record({
  // Per relation: which columns hold symbols.
  rels: fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  items: fc.array(
    fc.record({
      rel: fc.nat(),
      file: fc.nat(1),
      rule: fc.boolean(),
      before: gap,
      args: fc.array(fc.tuple(text, number), { minLength: 3, maxLength: 3 }),
    }),
    { maxLength: 25 },
  ),
});

interface Case {
  rels: boolean[][];
  items: { rel: number; file: number; rule: boolean; before: string; args: [string, bigint][] }[];
}

/** Two rule files of random facts (with copying rules among them) over random relations. */
function programOf(c: Case): CheckedRules {
  const files = [
    c.rels
      .map((cols, i) => {
        const attrs = cols.map((s, j) => `a${j}: ${s ? 'symbol' : 'number'}`).join(', ');
        return `.decl r${i}(${attrs})\n.decl c${i}(${attrs})\n.output c${i}\n`;
      })
      .join(''),
    '',
  ];
  for (const it of c.items) {
    const i = it.rel % c.rels.length;
    const cols = c.rels[i]!;
    const vars = cols.map((_, j) => `X${j}`).join(', ');
    const args = cols.map((s, j) => (s ? JSON.stringify(it.args[j]![0]) : String(it.args[j]![1]))).join(', ');
    files[it.file] += `${it.before}${it.rule ? `c${i}(${vars}) :- r${i}(${vars}).` : `r${i}(${args}).`}\n`;
  }
  return loadProgram([
    { path: 'a.dl', text: files[0]! },
    { path: 'b.dl', text: files[1]! },
  ]);
}

describe('compiled facts', () => {
  fcTest.prop([caseOf], runs(200))('toPlain then fromPlain gives the program stored, also to evaluation and proofs', (c) => {
    const orig = programOf(c);
    const { read, plain } = roundTrip(orig);
    expect(view(read)).toEqual(view(orig));
    expect(JSON.stringify(toPlain(read))).toBe(JSON.stringify(plain));
    expect(outputs(read.program)).toEqual(outputs(orig.program));
    // Packed, the facts come with their table, unless some fact could not be packed (a number past ±(2^53 - 1), `-5`).
    const loose = read.program.clauses.filter((pc) => !(pc instanceof PackedFact) && pc.clause.isFact);
    expect(read.program.facts === undefined).toBe(loose.length > 0);
  });

  it("makes a fact's clause once, on its first read, located in its rule file", () => {
    const orig = loadProgram([{ path: 'ops.dl', text: '.decl op(n: symbol, k: number)\n.output op\nop("add", 2).\n  op("neg",1).\n' }]);
    const { read } = roundTrip(orig);
    const pc = read.program.clauses[1]!;
    expect(pc).toBeInstanceOf(PackedFact);
    expect(read.program.facts?.clauses).toHaveLength(2);
    const c = pc.clause;
    expect(pc.clause).toBe(c);
    expect(c.loc.source.text.slice(c.loc.start, c.loc.end)).toBe('op("neg",1).');
    expect(c.head.args.map((a) => a.loc.source.text.slice(a.loc.start, a.loc.end))).toEqual(['"neg"', '1']);
    expect(formatProof(evaluate(read.program, read.program.newDatabase()).explain('op', ['neg', 1])!)).toContain('[fact ops.dl:4]');
  });

  it('refuses stored facts that are not well formed', () => {
    const orig = loadProgram([
      {
        path: 'ops.dl',
        text: '.decl op(n: symbol, k: number)\n.decl two(n: symbol)\n.output two\nop("add", 2).\nop("neg", 1).\ntwo(N) :- op(N, 2).\n',
      },
    ]);
    const { plain } = roundTrip(orig);
    const source = orig.program.sources[0]!;
    // The program's one run of facts: a part, `[part, first clause id]` in the body.
    const refs = (p: PlainRules) => (p.body as { facts: [number, number][] }).facts;
    expect(refs(plain)).toHaveLength(1);
    // Per fact: id (from the run's first), relation (of the run's), start, 5 offsets, then (value, start, end) per argument.
    const damage: ((f: PlainFacts, p: PlainRules) => void)[] = [
      (f) => (f.rows[8] = 7), // a string index out of range
      (f) => (f.rows[11] = 1.5), // a number that is not an integer
      (f) => (f.rows[8] = 'add' as unknown as number), // a string in place of its index
      (f) => (f.rows[2] = source.text.length + 1), // a clause past the end of its file
      (f) => (f.rows[9] = -1000), // an argument before the start of its file
      (f) => (f.rows[14] = 0), // the second fact's id before the first's
      (f) => (f.rows[1] = 1), // a relation the run does not list
      (f) => (f.rels[0]![1] = 'nn'), // a relation of other columns than the program's
      (f) => (f.rels[0]![0] = 'two'), // a fact of the one-column relation, with two arguments
      (f) => f.rows.pop(), // truncated
      (f) => (f.count = 3),
      (f) => ((f as Partial<PlainFacts>).strings = undefined),
      (f) => (f.strings[0] = 5 as unknown as string),
      (f) => (f.paths = [] as unknown as [string]), // no source
      (_, p) => (refs(p)[0]![1] = (p.body as { clauses: { id: number }[] }).clauses[0]!.id), // a fact in a rule's place
      (_, p) => (refs(p)[0]![1] = -1),
      (_, p) => (refs(p)[0]![0] = 0), // a part of rules as facts
    ];
    for (const d of damage) {
      const bad = JSON.parse(JSON.stringify(plain)) as PlainRules;
      const k = refs(bad)[0]![0];
      const run = JSON.parse(bad.parts[k]!) as PlainFacts;
      d(run, bad);
      bad.parts[k] = JSON.stringify(run);
      expect(() => fromPlain(bad, () => source)).toThrow(BadCompiledRules);
    }
  });
});
