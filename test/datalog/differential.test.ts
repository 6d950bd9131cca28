import { test as fcTest } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { evaluate, evaluateNaive, loadProgram } from '../../src/datalog/index.js';
import { runs as scaled } from '../runs.js';
import { randomCase, seeds } from './gen.js';

describe('optimized evaluator = naive evaluator', () => {
  fcTest.prop([seeds], scaled(300))('on random stratifiable programs', (seed) => {
    const c = randomCase(seed);
    const { program } = loadProgram([{ path: `random-${seed}.dl`, text: c.text }]);
    const db = program.newDatabase();
    for (const [rel, rows] of c.facts) db.insertMany(rel, rows);
    const fast = evaluate(program, db);
    const slow = evaluateNaive(program, c.facts);
    for (const info of program.relations) {
      expect(fast.tuples(info.name), `${info.name} in\n${c.text}`).toEqual(slow.get(info.name));
    }
  });
});
