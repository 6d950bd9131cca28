import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { evaluate, loadProgram } from '../../src/datalog/index.js';
import { RowBuffer } from '../../src/datalog/storage/row-buffer.js';

const program = () =>
  loadProgram([
    {
      path: 'db.dl',
      text: '.decl e(x: number, s: symbol)\n.input e\n.decl z()\n.input z\n.decl o(x: number, s: symbol)\n.output o\no(X, S) :- e(X, S).\n',
    },
  ]).program;

describe('RowBuffer', () => {
  // Mostly 32-bit values, sometimes one beyond: the buffer widens to 64-bit numbers once, keeping the rows before it.
  const value = fc.oneof(
    { arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), weight: 4 },
    { arbitrary: fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), weight: 1 },
  );
  test.prop([fc.integer({ min: 1, max: 5 }), fc.array(value, { maxLength: 200 })])(
    'gives back every appended row in order (widening to 64-bit numbers when a value needs it)',
    (arity, values) => {
      const rows: number[][] = [];
      for (let i = 0; i + arity <= values.length; i += arity) rows.push(values.slice(i, i + arity));
      const b = new RowBuffer(arity);
      for (const r of rows) b.push(r);
      const out: number[][] = [];
      b.forEach((r) => out.push([...r]));
      expect(b.count).toBe(rows.length);
      expect(out).toEqual(rows);
    },
  );

  test.prop([fc.integer({ min: 1, max: 4 }), fc.array(value, { maxLength: 300_000 / 50 }), fc.array(value, { maxLength: 40 })])(
    'drain gives the rows forEach gives, leaves the buffer empty, and it takes rows again',
    (arity, values, more) => {
      const b = new RowBuffer(arity);
      for (let i = 0; i + arity <= values.length; i += arity) b.push(values.slice(i, i + arity));
      const seen: number[][] = [];
      b.forEach((r) => seen.push([...r]));
      const drained: number[][] = [];
      b.drain((r) => drained.push([...r]));
      expect(drained).toEqual(seen);
      expect(b.count).toBe(0);
      const rest: number[][] = [];
      for (let i = 0; i + arity <= more.length; i += arity) rest.push(more.slice(i, i + arity));
      for (const r of rest) b.push(r);
      const after: number[][] = [];
      b.forEach((r) => after.push([...r]));
      expect(after).toEqual(rest);
    },
  );

  it('drains rows across chunks', () => {
    const b = new RowBuffer(3);
    for (let i = 0; i < 70_000; i++) b.push([i, 5 - i, i * 2]);
    let k = 0;
    b.drain((r) => {
      expect([r[0], r[1], r[2]]).toEqual([k, 5 - k, k * 2]);
      k++;
    });
    expect(k).toBe(70_000);
  });

  it('widens across chunk boundaries (a big value after the first chunk is full)', () => {
    const b = new RowBuffer(2);
    for (let i = 0; i < 40_000; i++) b.push([i, -i]);
    b.push([2 ** 40, 3]);
    for (let i = 0; i < 10; i++) b.push([i, 2 ** 33 + i]);
    const out: number[][] = [];
    b.forEach((r) => out.push([...r]));
    expect(out.length).toBe(40_011);
    expect(out[39_999]).toEqual([39_999, -39_999]);
    expect(out[40_000]).toEqual([2 ** 40, 3]);
    expect(out[40_010]).toEqual([9, 2 ** 33 + 9]);
  });

  it('spans chunks (more rows than one chunk holds)', () => {
    const b = new RowBuffer(3);
    const n = 70_000; // 3 values a row: past the first 65,536-value chunk
    for (let i = 0; i < n; i++) b.push([i, -i, i * 2]);
    let k = 0;
    let ok = true;
    b.forEach((r) => {
      if (r[0] !== k || r[1] !== -k || r[2] !== k * 2) ok = false;
      k++;
    });
    expect(k).toBe(n);
    expect(ok).toBe(true);
  });
});

describe('FactDatabase', () => {
  it('keeps the first of duplicate tuples streamed in, in insertion order, and counts distinct ones', () => {
    const p = program();
    const db = p.newDatabase();
    for (const [x, s] of [
      [3, 'a'],
      [1, 'b'],
      [3, 'a'],
      [2, 'c'],
      [1, 'b'],
    ] as const)
      db.insert('e', [x, s]);
    expect(db.size('e')).toBe(3);
    // Inserting after the relation was built still deduplicates and appends.
    db.insert('e', [2, 'c']);
    db.insert('e', [4, 'd']);
    expect(db.size('e')).toBe(4);
    const r = evaluate(p, db);
    expect(r.tuples('o').map(String)).toEqual(['1,b', '2,c', '3,a', '4,d']);
    const e = db.relations[p.relation('e')!.id]!;
    expect([0, 1, 2, 3].map((i) => e.row(i)[0])).toEqual([3, 1, 2, 4]);
  });

  it('stores nullary facts and reports no storage for relations never inserted into', () => {
    const p = program();
    const db = p.newDatabase();
    db.insert('z', []);
    db.insert('z', []);
    expect(db.size('z')).toBe(1);
    expect(db.relations[p.relation('o')!.id]).toBeUndefined();
    expect(db.size('e')).toBe(0);
  });

  it('checks each tuple as it is inserted, before the relation is built', () => {
    const db = program().newDatabase();
    expect(() => db.insert('e', [1])).toThrow(/has 2 columns/);
    expect(() => db.insert('e', ['x', 'y'])).toThrow(/is a number/);
  });
});
