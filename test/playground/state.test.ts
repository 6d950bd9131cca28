// The share link (issue 33, 11): compressed, holding kernel, rules and the "as written" box;
// links of the first form (`#k=…&r=…`) still open.

import { readFileSync } from 'node:fs';
import { fc, it as prop } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { stateFromHash, stateToHash } from '../../playground/src/state.js';

describe('share link state', () => {
  prop.prop([fc.string({ unit: 'grapheme' }), fc.string(), fc.boolean()])(
    'round-trips kernel, rules and "as written"',
    async (kernel, rules, asWritten) => {
      expect(await stateFromHash(await stateToHash({ kernel, rules, asWritten }))).toEqual({ kernel, rules, asWritten });
    },
  );

  it('is compressed: a shipped example takes under half the characters of plain base64url', async () => {
    const kernel = readFileSync('examples/ring_allreduce.py', 'utf8');
    const hash = await stateToHash({ kernel, rules: '' });
    expect(hash).toMatch(/^#z=[\w-]+$/);
    expect(hash.length).toBeLessThan(Buffer.from(kernel).toString('base64url').length / 2);
  });

  it('reads links of the first form, and nothing from a damaged one', async () => {
    const b64 = (s: string): string => Buffer.from(s).toString('base64url');
    expect(await stateFromHash(`#k=${b64('x = 1\n')}&r=${b64('wait_op("a").')}`)).toEqual({ kernel: 'x = 1\n', rules: 'wait_op("a").' });
    expect(await stateFromHash('#z=not-deflate')).toBeUndefined();
    expect(await stateFromHash('')).toBeUndefined();
  });
});
