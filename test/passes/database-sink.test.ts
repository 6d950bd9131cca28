/**
 * The database sink stores the `.input` relations some rule reads (and outputs) and drops the
 * facts of the others; what it decides per relation is kept per program, so every database of a
 * program (one per file of an audit) gets the same, and another program decides for itself.
 */

import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../src/datalog/index.js';
import { databaseSink } from '../../src/passes/database-sink.js';

const program = (rule: string) =>
  loadProgram([
    {
      path: 'p.dl',
      text: `.decl a(x: number)\n.input a\n.decl b(x: symbol)\n.input b\n.decl o(x: number)\n.input o\n.output o\n.decl r(x: number)\n.output r\n${rule}\n`,
    },
  ]).program;

describe('databaseSink', () => {
  it('stores what a rule reads and the outputs, for every database of the program, and decides anew for another program', () => {
    const readsA = program('r(X) :- a(X).');
    for (let round = 0; round < 2; round++) {
      const db = readsA.newDatabase();
      const sink = databaseSink(readsA, db);
      expect([sink.wants?.('a'), sink.wants?.('b'), sink.wants?.('o'), sink.wants?.('nope')]).toEqual([true, false, true, false]);
      sink.add('a', [1]);
      sink.add('a', [2]);
      sink.add('b', ['x']);
      sink.add('o', [5]);
      sink.add('nope', [0]);
      expect([db.size('a'), db.size('b'), db.size('o')]).toEqual([2, 0, 1]);
    }
    const readsB = program('r(1) :- b(_).');
    const db = readsB.newDatabase();
    const sink = databaseSink(readsB, db);
    expect([sink.wants?.('a'), sink.wants?.('b')]).toEqual([false, true]);
    sink.add('a', [1]);
    sink.add('b', ['x']);
    expect([db.size('a'), db.size('b')]).toEqual([0, 1]);
  });
});
