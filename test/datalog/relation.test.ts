import { fc, test } from '@fast-check/vitest';
import { describe, expect, it, vi } from 'vitest';
import { Arena } from '../../src/datalog/storage/arena.js';
import { Relation } from '../../src/datalog/storage/relation.js';

// Operations on a relation, checked against a plain model (a map from tuple text to its first row).
type Op =
  | { op: 'add'; t: number[]; h: number }
  | { op: 'find'; t: number[] }
  | { op: 'has'; t: number[] }
  | { op: 'lookup'; cols: number[]; t: number[] }
  | { op: 'compact' }
  | { op: 'release' };

const small = fc.integer({ min: -3, max: 3 });
const value = fc.oneof({ arbitrary: small, weight: 6 }, { arbitrary: fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), weight: 1 });

function opArb(arity: number): fc.Arbitrary<Op> {
  const tuple = fc.array(value, { minLength: arity, maxLength: arity });
  return fc.oneof(
    { arbitrary: fc.record({ op: fc.constant('add' as const), t: tuple, h: fc.integer({ min: 0, max: 5 }) }), weight: 8 },
    { arbitrary: fc.record({ op: fc.constant('find' as const), t: tuple }), weight: 3 },
    { arbitrary: fc.record({ op: fc.constant('has' as const), t: tuple }), weight: 3 },
    {
      arbitrary: fc.record({ op: fc.constant('lookup' as const), cols: fc.subarray([...Array(arity).keys()], { minLength: 1 }), t: tuple }),
      weight: 3,
    },
    { arbitrary: fc.constant({ op: 'compact' as const }), weight: 1 },
    { arbitrary: fc.constant({ op: 'release' as const }), weight: 1 },
  );
}

describe('Relation', () => {
  test.prop([fc.integer({ min: 1, max: 3 }).chain((a) => fc.tuple(fc.constant(a), fc.array(opArb(a), { maxLength: 400 })))])(
    'is a set with rows in insertion order and their heights, whatever is compacted, released or looked up (set or bitmap) in between',
    ([arity, ops]) => {
      const rel = new Relation(arity, 4);
      const rows: number[][] = [];
      const heights: number[] = [];
      const at = new Map<string, number>();
      for (const o of ops) {
        if (o.op === 'add') {
          const k = o.t.join(',');
          const fresh = !at.has(k);
          expect(rel.add(o.t, o.h)).toBe(fresh);
          if (fresh) {
            at.set(k, rows.length);
            rows.push(o.t);
            heights.push(o.h);
          }
        } else if (o.op === 'find') expect(rel.find(o.t)).toBe(at.get(o.t.join(',')) ?? -1);
        else if (o.op === 'has') expect(rel.has(o.t)).toBe(at.has(o.t.join(',')));
        else if (o.op === 'lookup') {
          const ix = rel.index(o.cols);
          ix.ensure(rel.count);
          const got: number[] = [];
          for (let r = ix.findN(o.cols.map((c) => o.t[c]!)); r !== -1; r = ix.nextRow(r)) got.push(r);
          const want = rows.flatMap((row, r) => (o.cols.every((c) => row[c] === o.t[c]) ? [r] : [])).reverse();
          expect(got).toEqual(want);
        } else if (o.op === 'compact') rel.compact();
        else rel.releaseIndexes();
      }
      expect(rel.count).toBe(rows.length);
      rows.forEach((row, r) => {
        expect(rel.row(r)).toEqual(row);
        expect(rel.heightOf(r)).toBe(heights[r]);
      });
      expect([...rel.height]).toEqual(heights);
      const c = rel.clone();
      expect(c.count).toBe(rows.length);
      rows.forEach((row, r) => {
        expect(c.find(row)).toBe(r);
        expect(c.heightOf(r)).toBe(heights[r]);
      });
      expect(c.add(rows[0] ?? new Array<number>(arity).fill(99), 7)).toBe(rows.length === 0);
    },
  );

  test.prop([fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 3000 })])(
    'an index built on a complete relation finds every row of a key, the newest first, however many keys there are',
    (keys) => {
      const rel = new Relation(2, keys.length);
      keys.forEach((k, i) => rel.add([k, i], 0));
      rel.compact();
      const ix = rel.index([0]);
      ix.ensure(rel.count);
      for (const k of new Set(keys)) {
        const got: number[] = [];
        for (let r = ix.find1(k); r !== -1; r = ix.nextRow(r)) got.push(r);
        expect(got).toEqual(keys.flatMap((x, i) => (x === k ? [i] : [])).reverse());
      }
      expect(ix.find1(31)).toBe(-1);
    },
  );

  // Dedup switches to a bitmap over the columns' ranges where the set would grow, widens the
  // ranges when a value falls outside them (below or above, by steps or far), and goes back to the
  // set when a range gets too wide or a lookup needs row numbers: the relation stays the same set.
  test.prop([
    fc.array(
      fc
        .tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 20 }))
        .map(([x, y, jump]) => [jump === 0 ? x * 100_003 : x * jump, y]),
      { minLength: 1, maxLength: 1500 },
    ),
    fc.integer({ min: 0, max: 1500 }),
  ])('a relation of integer ids is the same set whichever dedup it uses, through range changes and lookups', (tuples, findAt) => {
    const rel = new Relation(2, 4);
    const at = new Map<string, number>();
    tuples.forEach((t, i) => {
      const k = t.join(',');
      const fresh = !at.has(k);
      expect(rel.has(t)).toBe(!fresh);
      expect(rel.add(t, 0)).toBe(fresh);
      if (fresh) at.set(k, at.size);
      if (i === findAt) for (const [key, r] of at) expect(rel.find(key.split(',').map(Number))).toBe(r);
    });
    expect(rel.count).toBe(at.size);
    for (const [key, r] of at) {
      expect(rel.has(key.split(',').map(Number))).toBe(true);
      expect(rel.row(r)).toEqual(key.split(',').map(Number));
    }
    expect(rel.has([1_000_000_007, 0])).toBe(false);
    expect(rel.find([-1, -1])).toBe(at.get('-1,-1') ?? -1);
  });

  // Ids arriving mostly in increasing order (the first column's range grows upwards: the bitmap is
  // copied, not rebuilt), with the other columns and the occasional smaller id widening it otherwise.
  test.prop([
    fc.integer({ min: 1, max: 3 }),
    fc.array(fc.tuple(fc.integer({ min: -5, max: 60 }), fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 2000 }),
  ])('a relation of mostly ascending ids is the same set after every widening of its bitmap', (arity, steps) => {
    const rel = new Relation(arity, 4);
    const seen = new Set<string>();
    let id = 0;
    for (const [step, other] of steps) {
      id += step;
      const t = [id, other, other * 7 - 3].slice(0, arity);
      const k = t.join(',');
      expect(rel.add(t, 0)).toBe(!seen.has(k));
      seen.add(k);
    }
    expect(rel.count).toBe(seen.size);
    for (const k of seen) expect(rel.has(k.split(',').map(Number))).toBe(true);
    expect(rel.has([id + 1, 0, -3].slice(0, arity))).toBe(seen.has([id + 1, 0, -3].slice(0, arity).join(',')));
  });

  test('a closure-sized relation of ids dedups in a bitmap no larger than its set would be', () => {
    const rel = new Relation(2, 4);
    let added = 0;
    for (let x = 0; x < 300; x++) for (let y = 0; y < 300; y++) if (rel.add([x, y], 1)) added++;
    expect(added).toBe(90_000);
    expect(rel.add([299, 299], 2)).toBe(false);
    // 90,000 rows of 8 bytes (the row array doubles: 131,072 rows) and a bitmap of the key range
    // (each range at most twice as wide as its values), not a set of 4 to 8 bytes a row.
    expect(rel.bytes).toBeLessThan(131_072 * 8 + (4 * 90_000) / 8 + 1024);
    expect(rel.bytes).toBeGreaterThan(131_072 * 8);
  });
});

describe('Relation growth', () => {
  it('doubles its rows while small and grows them by half past 2^20 rows, keeping every row', () => {
    const r = new Relation(1);
    const t = new Float64Array(1);
    for (let i = 0; i < 2 ** 20; i++) {
      t[0] = i;
      r.add(t, 0);
    }
    expect(r.data.length).toBe(2 ** 20); // doubled up to here
    t[0] = -1;
    r.add(t, 0);
    expect(r.data.length).toBe(1.5 * 2 ** 20);
    expect(r.count).toBe(2 ** 20 + 1);
    t[0] = 12345;
    expect(r.find(t)).toBe(12345);
    t[0] = -1;
    expect(r.find(t)).toBe(2 ** 20);
  });
});

describe('Relation.index', () => {
  it('gives one index per list of columns (in their order), the same each time until the indexes are released', () => {
    const r = new Relation(3);
    for (let i = 0; i < 10; i++) r.add([i, i % 3, 7], 0);
    const a = r.index([0, 1]);
    expect(r.index([0, 1])).toBe(a);
    expect(r.index([0, 1].slice())).toBe(a);
    const others = [r.index([1, 0]), r.index([0]), r.index([0, 1, 2]), r.index([1]), r.index([2, 1])];
    expect(new Set([a, ...others]).size).toBe(6);
    expect(r.index([1, 0])).toBe(others[0]);
    expect(r.index([0])).toBe(others[1]);
    a.ensure(r.count);
    expect(a.find2(4, 1)).toBe(4);
    r.releaseIndexes();
    const b = r.index([0, 1]);
    expect(b).not.toBe(a);
    b.ensure(r.count);
    expect(b.find2(5, 2)).toBe(5);
  });
  it('builds a hashed index of a thousand keys in one table, not one per doubling from 16 slots', () => {
    const r = new Relation(2);
    // Keys far apart (no dense or ranked table), each on one row.
    for (let i = 0; i < 1000; i++) r.add([((i * 7919) % 1000) * 100003, i], 0);
    const arena = new Arena();
    r.pool = arena;
    const ix = r.index([0]);
    const int32 = vi.spyOn(arena, 'int32');
    ix.ensure(r.count);
    expect(int32).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 1000; i++) expect(ix.find1(((i * 7919) % 1000) * 100003)).toBe(i);
    expect(ix.find1(5)).toBe(-1);
  });
});
