/**
 * The edit set as columns: readEdits on rows as an evaluation gives them (sorted) and in any
 * other order gives the same edits; EditTable.of keeps a set's edits and their order; IntColumn
 * keeps every number exactly.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { EvalResult, Value } from '../../src/datalog/index.js';
import { readEdits } from '../../src/passes/read-edits.js';
import { IntColumn } from '../../src/rewrite/columns.js';
import { type EditSet, EditTable, editCount, emptyEdits } from '../../src/rewrite/edits.js';

/** An evaluation result that holds `rows` per relation, given in that order. */
function fakeResult(rows: Record<string, Value[][]>): EvalResult {
  return {
    has: (rel: string) => rel in rows,
    forEachTuple: (rel: string, f: (t: readonly Value[]) => void) => {
      for (const t of rows[rel] ?? []) f(t);
    },
  } as unknown as EvalResult;
}

/** Every edit of a set as plain data (the columns' objects built). */
function plain(e: EditSet): EditSet {
  return {
    insertCall: e.insertCall,
    orphanArgs: e.orphanArgs,
    replaceDeps: e.replaceDeps,
    setKwarg: e.setKwarg,
    replaceKwarg: e.replaceKwarg,
    removeFuncAttr: e.removeFuncAttr,
    hoist: e.hoist ?? [],
    bad: e.bad,
  };
}

const sorted = {
  insert_call: [
    [3, 'after', 0, 'system.cacheinvalid', ''],
    [3, 'after', 0, 'system.other', ''],
    [3, 'after', 1, 'system.fence', ''],
    [3, 'before', 0, 'system.task_dummy', 'b0'],
    [9, 'after', 0, 'system.fence', ''],
  ],
  call_arg: [
    [3, 'after', 0, 0, 'expr', 11, ''],
    [3, 'after', 0, 1, 'shape', 12, ''],
    [3, 'after', 0, 2, 'zeros', 12, ''],
    [4, 'after', 0, 0, 'text', 0, '1'],
  ],
  call_kwarg: [
    [3, 'before', 0, 'deps', 'list', 20, ''],
    [3, 'before', 0, 'name', 'text', 0, '"b"'],
  ],
  replace_deps: [
    [30, 'b0'],
    [31, 'b0'],
  ],
} satisfies Record<string, Value[][]>;

describe('readEdits', () => {
  it('reads calls with their arguments in order, and reports two calls at one place and orphan arguments', () => {
    const e = readEdits(fakeResult(sorted));
    expect(e.insertCall.map((c) => [c.stmt, c.place, c.seq, c.op, c.args.map((a) => a.pos), c.kwargs.map((k) => k.key)])).toEqual([
      [3, 'after', 0, 'system.cacheinvalid', [0, 1, 2], []],
      [3, 'after', 1, 'system.fence', [], []],
      [3, 'before', 0, 'system.task_dummy', [], ['deps', 'name']],
      [9, 'after', 0, 'system.fence', [], []],
    ]);
    expect(e.insertCall[0]!.args[1]!.value).toEqual({ kind: 'shape', node: 12, text: '' });
    expect(e.orphanArgs.map((o) => o.what)).toEqual([
      'two calls (system.cacheinvalid, system.other) at the same place and seq',
      'call_arg at position 0',
    ]);
    expect(e.replaceDeps).toEqual([
      { node: 30, name: 'b0' },
      { node: 31, name: 'b0' },
    ]);
    expect(editCount(e)).toBe(4 + 2 + 2);
  });

  test.prop([fc.array(fc.nat(), { minLength: 20, maxLength: 20 })], { numRuns: 50 })(
    'reads the same edits from rows in any order',
    (keys) => {
      const shuffle = (rows: Value[][]): Value[][] =>
        rows
          .map((r, i) => [keys[i % keys.length]!, r] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, r]) => r);
      const want = plain(readEdits(fakeResult(sorted)));
      const got = plain(readEdits(fakeResult(Object.fromEntries(Object.entries(sorted).map(([k, rows]) => [k, shuffle(rows)])))));
      // Calls come in the order read, and which of two calls at one place is kept follows it too.
      const key = (c: { stmt: number; place: string; seq: number }): string => `${c.stmt} ${c.place} ${c.seq}`;
      const byKey = <T extends { stmt: number; place: string; seq: number }>(xs: T[]): T[] =>
        [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      expect(byKey(got.insertCall).map((c) => [key(c), c.args, c.kwargs])).toEqual(
        byKey(want.insertCall).map((c) => [key(c), c.args, c.kwargs]),
      );
      expect(got.orphanArgs.length).toBe(want.orphanArgs.length);
      expect(got.replaceDeps).toEqual(expect.arrayContaining(want.replaceDeps));
    },
  );
});

describe('EditTable.of', () => {
  it('keeps every edit of a set of objects, in order, and a table is itself', () => {
    const set = emptyEdits();
    set.insertCall = [
      {
        stmt: 5,
        place: 'after',
        seq: 2 ** 40,
        op: 'a.b',
        bind: '',
        args: [
          { pos: 1, value: { kind: 'text', node: 0, text: 'x' } },
          { pos: 0, value: { kind: 'expr', node: 7, text: '' } },
        ],
        kwargs: [],
      },
      {
        stmt: -1,
        place: 'before',
        seq: 0,
        op: 'c',
        bind: 'v',
        args: [],
        kwargs: [{ key: 'k', value: { kind: 'name', node: 0, text: 'n' } }],
      },
    ];
    set.replaceDeps = [{ node: 4, name: 'v' }];
    set.bad = [{ node: 1, message: 'm' }];
    const t = EditTable.of(set);
    expect(plain(t)).toEqual(set);
    expect(EditTable.of(t)).toBe(t);
    expect(editCount(t)).toBe(editCount(set));
  });
});

describe('IntColumn', () => {
  it('keeps any number exactly and grows', () => {
    const values = [0, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53, 0.5, -0, Number.MAX_SAFE_INTEGER, 7];
    const c = new IntColumn(2);
    for (let i = 0; i < 100; i++) c.push(values[i % values.length]!);
    expect(c.length).toBe(100);
    for (let i = 0; i < 100; i++) expect(Object.is(c.at(i), values[i % values.length])).toBe(true);
  });
});
