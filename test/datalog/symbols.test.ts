import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { SymbolTable } from '../../src/datalog/symbols.js';

describe('SymbolTable', () => {
  // Few distinct short strings (many repeats), any strings, and names like a0..a99999 (past the table's first growths).
  const word = fc.oneof(fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'é', '\u{1F600}'), fc.string({ unit: 'binary', maxLength: 12 }), fc.nat({ max: 99_999 }).map((n) => `a${n}`));
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
});
