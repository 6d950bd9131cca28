// The rule engine against its independent reference (evaluateNaive): random stratifiable programs
// with recursion, negation, functors and aggregates — also followed by equalities on their value
// (`1 = count : {...}`, `M = max X : {...}, M = W`, `(M = 0 ; M = 2)`) — over random facts; and
// the same programs read back from the compiled-rules cache.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as fcTest } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  evaluate,
  evaluateNaive,
  loadProgram,
  loadProgramCached,
  type RuleCache,
  type RuleProgram,
  type Value,
} from '../src/datalog/index.js';
import { randomCase, seeds } from '../test/datalog/gen.js';
import { fuzzRuns } from './runs.js';

/** Every relation of `program` evaluated on `facts`, by the engine. */
function fast(program: RuleProgram, facts: ReadonlyMap<string, Value[][]>): Map<string, Value[][]> {
  const db = program.newDatabase();
  for (const [rel, rows] of facts) db.insertMany(rel, rows);
  const r = evaluate(program, db, { prune: false });
  return new Map(program.relations.map((info) => [info.name, r.tuples(info.name)]));
}

describe('datalog fuzz', () => {
  fcTest.prop([seeds], { numRuns: fuzzRuns() })('the engine = the naive evaluator on random programs', (seed) => {
    const c = randomCase(seed);
    const { program } = loadProgram([{ path: `random-${seed}.dl`, text: c.text }]);
    const got = fast(program, c.facts);
    const want = evaluateNaive(program, c.facts);
    for (const info of program.relations) expect(got.get(info.name), `${info.name} in\n${c.text}`).toEqual(want.get(info.name));
  });

  const dir = mkdtempSync(join(tmpdir(), 'ptolog-fuzz-'));
  fcTest.prop([seeds], { numRuns: fuzzRuns(0.25) })('a program read back from the compiled-rules cache evaluates the same', (seed) => {
    const c = randomCase(seed);
    const path = join(dir, `random-${seed}.dl`);
    writeFileSync(path, c.text);
    const memory = new Map<string, string>();
    const cache: RuleCache = { version: 'fuzz', stores: [], memory };
    const compiled = loadProgramCached({ files: [path], includeDirs: [], libraries: {}, root: dir }, cache).program;
    const read = loadProgramCached(
      { files: [path], includeDirs: [], libraries: {}, root: dir },
      { ...cache, memory: new Map(memory) },
      (p) => p,
      () => {
        throw new Error('parsed again');
      },
    ).program;
    const want = evaluateNaive(compiled, c.facts);
    const got = fast(read, c.facts);
    for (const info of read.relations) expect(got.get(info.name), `${info.name} in\n${c.text}`).toEqual(want.get(info.name));
  });
});
