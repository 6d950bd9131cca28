import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { AggMemo, MemoSet } from '../../src/datalog/exec/memo.js';
import { Arena } from '../../src/datalog/storage/arena.js';

/** Keys of encoded values: small ints (many repeats), int32 extremes, wide safe integers, boxes (≤ -2^62). */
const value = fc.oneof(
  fc.integer({ min: -3, max: 40 }),
  fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, 2 ** 40 + 1, -(2 ** 62), -(2 ** 62) - 2 ** 12),
  fc.integer(),
);

describe('AggMemo', () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.tuple(fc.array(value, { minLength: 4, maxLength: 4 }), fc.double({ noNaN: true }), fc.boolean()), { maxLength: 3000 }),
      fc.boolean(),
    ],
    {
      numRuns: 40,
    },
  )('remembers what a Map keyed by the values would: each key once, its value or its having none', (width, ops, arena) => {
    const m = new AggMemo(width, arena ? new Arena() : null);
    const ref = new Map<string, number | null>();
    for (const [key, v, found] of ops) {
      const k = key.slice(0, width);
      for (let i = 0; i < width; i++) m.q[i] = k[i]!;
      const s = width === 1 && found ? m.at1(k[0]!) : width === 2 && found ? m.at2(k[0]!, k[1]!) : m.atN();
      const want = ref.get(k.join(','));
      if (want === undefined) {
        expect(m.state(s)).toBe(0);
        m.put(s, v, found ? 1 : 0);
        ref.set(k.join(','), found ? v : null);
      } else if (want === null) expect(m.state(s)).toBe(2);
      else {
        expect(m.state(s)).toBe(1);
        expect(m.value(s)).toBe(want);
      }
    }
    expect(m.size).toBe(ref.size);
  });

  it('gives its arrays back to the arena when the run ends', () => {
    const arena = new Arena();
    const memos = new MemoSet(arena);
    const m = memos.make(2);
    for (let i = 0; i < 100_000; i++) m.put(m.at2(i, -i), i, 1);
    expect(arena.bytesInUse).toBeGreaterThan(0);
    memos.release();
    arena.recycle();
    expect(arena.bytesInUse).toBe(0);
  });
});
