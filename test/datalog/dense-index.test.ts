import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { Arena, MIN_BYTES } from '../../src/datalog/storage/arena.js';
import { Relation } from '../../src/datalog/storage/relation.js';

// Dense indexes (a column of distinct ids: one table slot per value) and relations built from
// row arrays (a dedup pass only when no column is distinct), checked against plain models.

/** Rows of arity 2: repeated rows (small values), rows with an id column, values beyond 32 bits. */
const rowsArb = (min: number, max: number) =>
  fc.oneof(
    fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3 })), { minLength: min, maxLength: max, size: 'max' }),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 4 * max }), fc.integer({ min: 0, max: 3 })), {
      minLength: min,
      maxLength: max,
      size: 'max',
    }),
    fc.array(fc.tuple(fc.integer({ min: -5, max: 2 ** 40 }), fc.integer({ min: 0, max: 3 })), { minLength: min, maxLength: max }),
  );

/** The rows of `rows` whose columns `cols` equal `key`, newest first (what an index chain gives). */
function matching(rows: number[][], cols: number[], key: number[]): number[] {
  return rows.flatMap((row, r) => (cols.every((c, j) => row[c] === key[j]) ? [r] : [])).reverse();
}

describe('dense index', () => {
  // Step 10: ranked over ten values a row, too wide for a table: an id out of order makes it hashed.
  test.prop([fc.integer({ min: 256, max: 600 }), fc.integer({ min: 0, max: 300 }), fc.boolean(), fc.constantFrom(1, 2, 3, 10)], {
    numRuns: 60,
  })('finds what a hashed index finds, before and after rows that break its density or uniqueness', (n, more, breakIt, step) => {
    const rel = new Relation(2, 4);
    const rows: number[][] = [];
    const add = (t: number[]): void => {
      if (rel.add(t, 0)) rows.push(t);
    };
    for (let i = 0; i < n; i++) add([1000 + i * step, i % 3]);
    const ix0 = rel.index([0]);
    const ix01 = rel.index([0, 1]);
    const ix10 = rel.index([1, 0]);
    const check = (): void => {
      for (const ix of [ix0, ix01, ix10]) ix.ensure(rel.count);
      const keys = [...rows.slice(0, 40), [999, 0], [1000, 2], [-1, 0], [2 ** 40, 1]];
      for (const [a, b] of keys) {
        const chain = (first: number, ix: typeof ix0): number[] => {
          const out: number[] = [];
          for (let r = first; r !== -1; r = ix.nextRow(r)) out.push(r);
          return out;
        };
        expect(chain(ix0.find1(a!), ix0)).toEqual(matching(rows, [0], [a!]));
        expect(chain(ix01.find2(a!, b!), ix01)).toEqual(matching(rows, [0, 1], [a!, b!]));
        expect(chain(ix10.findN([b!, a!]), ix10)).toEqual(matching(rows, [1, 0], [b!, a!]));
      }
    };
    check();
    for (let i = 0; i < more; i++) add([1000 + (n + i) * step, 1]);
    // Inside the range, distinct, but out of order: a ranked index becomes a table (still dense).
    if (step > 1) add([1001, 2]);
    if (breakIt) {
      add([1000, 1]); // a second row with id 1000: not unique any more
      add([-(2 ** 40), 0]); // far outside the range
    }
    check();
  });
});

describe('dense index with chains', () => {
  test.prop(
    [
      fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 50 })), { minLength: 256, maxLength: 700 }),
      fc.array(fc.tuple(fc.integer({ min: -50, max: 400 }), fc.integer({ min: 0, max: 50 })), { maxLength: 300 }),
      fc.boolean(),
    ],
    { numRuns: 40 },
  )(
    'a single key column whose values repeat: every chain holds the rows of its value, newest first, before and after more rows (and one far outside the range)',
    (first, later, far) => {
      const rel = new Relation(2, 4);
      const rows: number[][] = [];
      const add = (t: number[]): void => {
        if (rel.add(t, 0)) rows.push(t);
      };
      for (const t of first) add(t);
      const ix = rel.index([0]);
      const check = (): void => {
        ix.ensure(rel.count);
        for (let v = -51; v <= 401; v += 3) {
          const chain: number[] = [];
          for (let r = ix.find1(v); r !== -1; r = ix.nextRow(r)) chain.push(r);
          expect(chain).toEqual(matching(rows, [0], [v]));
        }
        if (rows.length >= 256 && !far) expect(ix.single).toBe(false);
      };
      check();
      for (const t of later) add(t);
      if (far) add([2 ** 40, 0]);
      check();
    },
  );
});

describe('Relation.fromRows', () => {
  test.prop([rowsArb(0, 400), fc.integer({ min: 0, max: 50 }), fc.boolean()], { numRuns: 80 })(
    'holds the distinct rows in first-seen order, with or without a distinct column',
    (rows, spare, inArena) => {
      const wide = rows.some((r) => r.some((v) => (v | 0) !== v));
      // The rows in a block of an arena when asked (past its smallest block).
      const arena = inArena ? new Arena() : null;
      const length = (rows.length + spare) * 2 + (inArena ? MIN_BYTES : 0);
      const data = wide ? (arena ? arena.float64(length) : new Float64Array(length)) : arena ? arena.int32(length) : new Int32Array(length);
      rows.forEach((r, i) => data.set(r, 2 * i));
      const rel = Relation.fromRows(2, rows.length, data, arena);
      const seen = new Set<string>();
      const want = rows.filter((r) => {
        const fresh = !seen.has(r.join());
        seen.add(r.join());
        return fresh;
      });
      expect(rel.count).toBe(want.length);
      want.forEach((r, i) => expect(rel.row(i)).toEqual(r));
      for (const r of want) expect(rel.has(r)).toBe(true);
      expect(rel.add(want[0] ?? [7, 7], 1)).toBe(want.length === 0);
    },
  );
});

describe('index lookups against a model', () => {
  /** Walks the chain of an index from `first`. */
  const chain = (first: number, ix: ReturnType<Relation['index']>): number[] => {
    const out: number[] = [];
    for (let r = first; r !== -1; r = ix.nextRow(r)) out.push(r);
    return out;
  };

  // Ids in any order (increasing: ranked; shuffled dense: a table; sparse: hashed without chains
  // while every key is unique), indexed in batches as a growing relation is, then keys repeated.
  test.prop(
    [
      fc.integer({ min: 256, max: 700 }),
      fc.constantFrom(1, 3, 10, 40),
      fc.boolean(),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 5 }),
    ],
    { numRuns: 80 },
  )('finds every row of a key, newest first, whatever the order and spread of the ids', (n, spread, shuffle, seed, batches, repeats) => {
    const ids = Array.from({ length: n }, (_, i) => 5 + i * spread);
    if (shuffle) {
      let x = seed;
      for (let i = n - 1; i > 0; i--) {
        x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
        const j = x % (i + 1);
        [ids[i], ids[j]] = [ids[j]!, ids[i]!];
      }
    }
    const rel = new Relation(2, 4);
    const rows: number[][] = [];
    const add = (t: number[]): void => {
      if (rel.add(t, 0)) rows.push(t);
    };
    const ix0 = rel.index([0]);
    const ix01 = rel.index([0, 1]);
    const check = (): void => {
      ix0.ensure(rel.count);
      ix01.ensure(rel.count);
      const probes = [...rows.slice(0, 30), ...rows.slice(-30), [4, 0], [5 + n * spread, 0], [6, 1], [-3, 0], [2 ** 33, 0]];
      for (const [a, b] of probes) {
        expect(chain(ix0.find1(a!), ix0)).toEqual(matching(rows, [0], [a!]));
        expect(chain(ix01.find2(a!, b!), ix01)).toEqual(matching(rows, [0, 1], [a!, b!]));
      }
    };
    let at = 0;
    for (const size of [n, ...batches]) {
      for (const end = Math.min(ids.length, at + size); at < end; at++) add([ids[at]!, at % 2]);
      check();
    }
    for (let i = 0; i < repeats; i++) add([ids[(i * 37) % n]!, 7]);
    for (let i = at; i < ids.length; i++) add([ids[i]!, i % 2]);
    check();
    // Ids increasing again after the repeats: every mode has turned into one that holds them.
    add([10 * n * spread + 100, 0]);
    add([10 * n * spread + 100, 1]);
    check();
  });
});

describe('dense or hashed, by size', () => {
  const chain = (first: number, ix: { nextRow(r: number): number }): number[] => {
    const out: number[] = [];
    for (let r = first; r !== -1; r = ix.nextRow(r)) out.push(r);
    return out;
  };
  // Keys over a range within the dense bound (4 slots a row) but wider than 2^16 slots: a table
  // over the range would outweigh the hashed table of the keys, so the index is hashed; lookups agree.
  test.prop([fc.constantFrom(100, 25_000), fc.integer({ min: 0, max: 2 ** 31 - 1 })], { numRuns: 4 })(
    'few keys, or distinct shuffled ones, over a wide range are hashed, and find what the rows hold',
    (distinct, seed) => {
      const n = 25_000;
      const range = 4 * n; // over 2^16 slots
      let x = seed;
      const rnd = (m: number): number => {
        x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
        return x % m;
      };
      // `distinct` keys spread over the range (the first and last values pin it), each row one of them, in random order.
      const keys = Array.from({ length: distinct }, (_, i) => Math.floor((i * (range - 1)) / Math.max(1, distinct - 1)));
      const rows: number[][] = [];
      const rel = new Relation(2, 4);
      for (let i = 0; i < n; i++) {
        const k = distinct === n ? keys[i]! : keys[i < distinct ? i : rnd(distinct)]!;
        const t = [k, i];
        if (rel.add(t, 0)) rows.push(t);
      }
      for (let i = rows.length - 1; i > 0; i--) {
        const j = rnd(i + 1);
        [rows[i], rows[j]] = [rows[j]!, rows[i]!];
      }
      const shuffled = Relation.fromRows(2, rows.length, Int32Array.from(rows.flat()));
      const ix = shuffled.index([0]);
      ix.ensure(shuffled.count);
      expect(ix.bytes).toBeLessThan(4 * range);
      for (const k of [...keys.slice(0, 50), -1, 1, range + 5]) expect(chain(ix.find1(k), ix)).toEqual(matching(rows, [0], [k]));
    },
  );
});
