// The playground's text changes (a fix, "Apply all") turn the analysed kernel into the fixed one.

import { fc, it as prop } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { applyChanges, textChanges } from '../../playground/src/changes.js';

const line = fc.constantFrom('a\n', 'b\n', '    pl.system.fence()\n', '\n', 'c', 'x = 1\n');
const text = fc.array(line, { maxLength: 12 }).map((ls) => ls.join(''));

describe('textChanges', () => {
  prop.prop([text, text])('applying the changes of a to b gives b; they are sorted and apart', (a, b) => {
    const cs = textChanges(a, b);
    expect(applyChanges(a, cs)).toBe(b);
    for (let i = 1; i < cs.length; i++) expect(cs[i]!.from).toBeGreaterThan(cs[i - 1]!.to);
  });

  prop.prop([text])('no change for the same text', (a) => {
    expect(textChanges(a, a)).toEqual([]);
  });
});
