import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of bin/ without types
import { writeScriptCache } from '../../bin/code-cache.js';
import type { SharedMemos } from '../../src/datalog/check/program.js';
import {
  compiledPlanCodes,
  evaluate,
  loadProgram,
  PrebuiltPlans,
  prebuiltPlansScript,
  providePrebuiltPlans,
  RuleProgram,
} from '../../src/datalog/index.js';
import { runCachedScript } from '../../src/runner/prebuilt-plans.js';

const RULES = `
.decl edge(a: symbol, b: symbol)
.decl path(a: symbol, b: symbol)
.decl far(a: symbol, n: number)
.decl hub(a: symbol)
.output path
.output far
.output hub
path(X, Y) :- edge(X, Y).
path(X, Z) :- path(X, Y), edge(Y, Z).
far(X, N) :- edge(X, _), N = count : { path(X, _) }, N > 1.
hub(X) :- edge(X, "c"), !edge("c", X).
`;
const EDGES = [
  ['a', 'b'],
  ['b', 'c'],
  ['c', 'd'],
  ['d', 'a'],
  ['e', 'c'],
];

/** The program of RULES whose plans go to the store `shared` (as the programs one RuleSession loads share it). */
function program(shared: SharedMemos): RuleProgram {
  const p = loadProgram([{ path: 'test.dl', text: RULES }]).program;
  return new RuleProgram(p.relations, p.clauses, p.strata, p.sources, undefined, shared);
}

/** Every output of an evaluation of RULES over EDGES, sorted. */
function outputs(shared: SharedMemos): string[] {
  const p = program(shared);
  const db = p.newDatabase();
  db.insertMany('edge', EDGES);
  const r = evaluate(p, db);
  return ['path', 'far', 'hub'].flatMap((rel) => r.tuples(rel).map((t) => `${rel}(${t.join(',')})`)).sort();
}

const dir = mkdtempSync(join(tmpdir(), 'ptolog-plans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The plan codes an evaluation of RULES compiles, and what it derives. */
function reference(): { codes: string[]; derived: string[] } {
  const shared: SharedMemos = new Map();
  const derived = outputs(shared);
  return { codes: compiledPlanCodes(shared), derived };
}

/** Evaluates RULES with the table `file` holds; what it derived and how many plans the table gave. */
function withTable(file: string): { derived: string[]; used: number } {
  const shared: SharedMemos = new Map();
  const plans = new PrebuiltPlans(() => runCachedScript(file));
  providePrebuiltPlans(shared, plans);
  return { derived: outputs(shared), used: plans.used };
}

describe('prebuilt plan functions', () => {
  const { codes, derived } = reference();

  it('an evaluation compiles plans whose code a table is made of', () => {
    expect(codes.length).toBeGreaterThan(3);
    expect(derived).toContain('far(a,4)');
    expect(derived).toContain('hub(b)');
  });

  it('are used for exactly the code they were built from, with the same results', () => {
    const file = join(dir, 'plans.js');
    writeFileSync(file, prebuiltPlansScript(codes));
    expect(withTable(file)).toEqual({ derived, used: codes.length });
    // With its code cache (as the build writes it), and with a damaged one (then not used by V8).
    writeScriptCache(file);
    expect(withTable(file)).toEqual({ derived, used: codes.length });
    const cache = readFileSync(`${file}.cache`);
    cache[cache.length - 10]! ^= 0xff;
    writeFileSync(`${file}.cache`, cache);
    expect(withTable(file)).toEqual({ derived, used: codes.length });
  });

  it('ignore a table of other code (stale), a damaged or missing file', () => {
    const stale = join(dir, 'stale.js');
    // Another build's generator: each function's code differs a little (a space), nothing matches.
    writeFileSync(stale, prebuiltPlansScript(codes.map((c) => c.replace('const N = F.num;', 'const N  = F.num;'))));
    expect(withTable(stale)).toEqual({ derived, used: 0 });
    // A function whose text is one of the codes but for its body doing something else.
    const wrong = join(dir, 'wrong.js');
    writeFileSync(wrong, prebuiltPlansScript(codes.map((c) => `${c}\nOUT.add2(0, 0, H);`)));
    expect(withTable(wrong)).toEqual({ derived, used: 0 });
    // Texts of the very length of the codes' (what a lookup finds its candidates by), one character
    // changed: none is taken for the code (and one that would be, derives wrongly).
    const near = join(dir, 'near.js');
    const swapped = codes.map((c) =>
      c.replace(/OUT\.add\(T, H\)|OUT\.add2\(/, (m) => (m.startsWith('OUT.add(') ? 'OUT.add(T, 0)' : 'OUT.adD2(')),
    );
    expect(swapped.filter((c, i) => c.length === codes[i]!.length && c !== codes[i]).length).toBe(codes.length);
    writeFileSync(near, prebuiltPlansScript(swapped));
    expect(withTable(near)).toEqual({ derived, used: 0 });
    // Cut short (a syntax error), not a list of functions, not there.
    const whole = prebuiltPlansScript(codes);
    const cut = join(dir, 'cut.js');
    writeFileSync(cut, whole.slice(0, Math.floor(whole.length / 2)));
    expect(withTable(cut)).toEqual({ derived, used: 0 });
    const other = join(dir, 'other.js');
    writeFileSync(other, '({ length: 3, 0: 1 })');
    expect(withTable(other)).toEqual({ derived, used: 0 });
    writeFileSync(other, '[1, "x", function (a) { return a; }, null]');
    expect(withTable(other)).toEqual({ derived, used: 0 });
    expect(withTable(join(dir, 'missing.js'))).toEqual({ derived, used: 0 });
  });
});
