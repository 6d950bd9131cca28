// The rows a keeping NodeTable holds places and Submit deps shells in (kept-places.ts): what comes
// back is what was kept, past the table's growths, in any order of ids.

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { KeptPlaces } from '../../src/facts/kept-places.js';
import type { SubmitExpr } from '../../src/ir/nodes.js';

const submit = (start: number, deps: boolean): SubmitExpr => ({
  kind: 'Submit',
  func: `k${start % 3}`,
  args: [],
  kwargs: [],
  deps: deps ? [] : null,
  depsStart: deps ? start + 5 : -1,
  depsEnd: deps ? start + 9 : -1,
  start,
  end: start + 20,
});

describe('KeptPlaces', () => {
  test.prop(
    [
      fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 5000 }),
      fc.array(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { maxLength: 50 }),
    ],
    { numRuns: 25 },
  )('gives back each kept place or Submit shell by id, and nothing for an id not kept', (ids, others) => {
    const k = new KeptPlaces();
    const kinds = ['For', 'Assign', 'Binding', 'Call'] as const;
    ids.forEach((id, i) => {
      if (i % 3 === 2) k.addSubmit(id, submit(i, i % 2 === 0));
      else k.addPlace(id, kinds[i % 4]!, i, i + 7);
      if (i === ids.length >> 1) k.trim(); // (rows added after a trim grow them again)
    });
    k.trim();
    expect(k.size).toBe(ids.length);
    ids.forEach((id, i) => {
      if (i % 3 === 2) {
        const s = submit(i, i % 2 === 0);
        expect(k.get(id)).toEqual({ ...s, args: [], kwargs: [], deps: s.deps === null ? null : [] });
      } else expect(k.get(id)).toEqual({ kind: 'Located', of: kinds[i % 4], start: i, end: i + 7 });
    });
    const kept = new Set(ids);
    for (const o of others) if (!kept.has(o)) expect(k.get(o)).toBeUndefined();
  });

  it('refuses an id kept twice (a ptolog bug, not bad input)', () => {
    const k = new KeptPlaces();
    k.addPlace(3, 'For', 0, 1);
    expect(() => k.addPlace(3, 'For', 0, 1)).toThrow(/kept twice/);
  });
});
