import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { symbolOrder } from '../../src/datalog/storage/order.js';
import { SymbolTable } from '../../src/datalog/storage/symbols.js';

describe('SymbolTable', () => {
  // Few distinct short strings (many repeats), any strings, and names like a0..a99999 (past the table's first growths).
  const word = fc.oneof(
    fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'é', '\u{1F600}'),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.nat({ max: 99_999 }).map((n) => `a${n}`),
  );
  test.prop([fc.array(fc.tuple(word, fc.boolean()), { minLength: 2000, maxLength: 6000 })], { numRuns: 30 })(
    'gives each distinct string one id, in order of first interning, as a Map would',
    (ops) => {
      const t = new SymbolTable();
      const ref = new Map<string, number>();
      for (const [s, add] of ops) {
        if (add) {
          if (!ref.has(s)) ref.set(s, ref.size);
          expect(t.intern(s)).toBe(ref.get(s));
        } else expect(t.lookup(s)).toBe(ref.get(s) ?? -1);
      }
      expect(t.size).toBe(ref.size);
      for (const [s, id] of ref) {
        expect(t.text(id)).toBe(s);
        expect(t.lookup(s)).toBe(id);
      }
      expect(t.texts()).toEqual([...ref.keys()]);
    },
  );

  test.prop([fc.uniqueArray(word, { minLength: 1, maxLength: 3000 }), fc.func(fc.boolean()), fc.array(word, { maxLength: 50 })], {
    numRuns: 30,
  })(
    'retain forgets the unmarked texts only: kept ids and lookups unchanged, forgotten ones unknown, new ids after them, kept ones ranked by text',
    (all, keepIt, later) => {
      const t = new SymbolTable();
      for (const s of all) t.intern(s);
      const kept = new Uint8Array(t.size);
      all.forEach((s, id) => {
        kept[id] = keepIt(s) ? 1 : 0;
      });
      t.retain(kept);
      all.forEach((s, id) => {
        if (kept[id]) {
          expect(t.text(id)).toBe(s);
          expect(t.lookup(s)).toBe(id);
        } else {
          expect(() => t.text(id)).toThrow(/unknown symbol id/);
          expect(t.lookup(s)).toBe(-1);
        }
      });
      const forgotten = all.length - kept.reduce((a, b) => a + b, 0);
      expect(t.forgottenCount).toBe(forgotten);
      // The kept ids first, in text order; the forgotten ones after them.
      const order = symbolOrder(t);
      const known = [...order.byRank.subarray(0, all.length - forgotten)];
      expect(known.map((id) => t.text(id))).toEqual(all.filter((_, id) => kept[id]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      for (let r = 0; r < order.byRank.length; r++) expect(order.rank[order.byRank[r]!]).toBe(r);
      // Interning again: a kept text keeps its id, any other text (forgotten or new) gets a new one.
      for (const s of later) {
        const before = t.size;
        const had = all.indexOf(s);
        const id = t.intern(s);
        if (had >= 0 && kept[had]) expect(id).toBe(had);
        else expect(id).toBeGreaterThanOrEqual(all.length);
        expect(t.text(id)).toBe(s);
        expect(t.size).toBe(id >= before ? before + 1 : before);
      }
    },
  );
});
