// "Format Document" (src/lsp/layout.ts): layout only, every token kept.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutText } from '../../src/lsp/layout.js';

/** The text without any white space: what formatting must never change. */
const ink = (t: string): string => t.replace(/\s+/g, '');

describe('layoutText', () => {
  it('regularizes spaces and indentation, keeping every token and line break', () => {
    const messy = [
      'import pypto.language as pl',
      '@pl.program',
      'class K:',
      '  @pl.function(type = pl.FunctionType.InCore)',
      '  def f(self,x: pl.Tensor[[1,8],pl.FP32], n: int=3)->None:',
      '      y=pl.load(x,[0,0],[1,8])   # a comment   ',
      '      z = x[0:8 , :] + -y*2**3',
      '      w = f(*args, **kw)',
      '      if(n>1) :',
      '          pl.store(y, [0, 0],',
      '                   target = x)',
      '',
      '',
      '',
      '',
      'T = {"a": 1, "b":[1, 2]}',
      '',
    ].join('\n');
    expect(layoutText(messy)).toBe(
      [
        'import pypto.language as pl',
        '@pl.program',
        'class K:',
        '    @pl.function(type=pl.FunctionType.InCore)',
        '    def f(self, x: pl.Tensor[[1, 8], pl.FP32], n: int = 3) -> None:',
        '        y = pl.load(x, [0, 0], [1, 8])  # a comment',
        '        z = x[0:8, :] + -y * 2**3',
        '        w = f(*args, **kw)',
        '        if (n > 1):',
        '            pl.store(y, [0, 0],',
        '                     target=x)',
        '',
        '',
        'T = {"a": 1, "b": [1, 2]}',
        '',
      ].join('\n'),
    );
  });

  it('leaves strings, comments and pl.load as written; a formatted file stays as it is', () => {
    const t = 's = "a  ,b"  # keep   this\nx = pl.load(d, [0, 0], [1, 8])\n';
    expect(layoutText(t)).toBe('s = "a  ,b"  # keep   this\nx = pl.load(d, [0, 0], [1, 8])\n');
    for (const f of readdirSync('examples').filter((n) => n.endsWith('.py'))) {
      const text = readFileSync(join('examples', f), 'utf8');
      expect({ f, same: layoutText(text) === text }).toEqual({ f, same: true });
    }
  });

  it('refuses what it cannot read exactly: an unclosed string, tabs, an unexpected indent', () => {
    expect(layoutText('x = "open\n')).toBeUndefined();
    expect(layoutText('if x:\n\tpass\n')).toBeUndefined();
    expect(layoutText('x = 1\n    y = 2\n')).toBeUndefined();
  });

  // Over every kernel of the golden suites, spaces and indentation shuffled: the tokens never change.
  const inputs = readdirSync('specs/insert_comm_fence')
    .filter((n) => n.endsWith('.py'))
    .map((n) => readFileSync(join('specs/insert_comm_fence', n), 'utf8'));
  test.prop([fc.constantFrom(...inputs), fc.array(fc.nat(), { minLength: 1, maxLength: 20 })], { numRuns: 60 })(
    'keeps every token of a kernel whose spaces were shuffled',
    (text, seeds) => {
      // Double a few runs of spaces between tokens (never in indentation or strings: only after a comma).
      let k = 0;
      const shuffled = text.replace(/, /g, (m) => (seeds[k++ % seeds.length]! % 3 === 0 ? ',   ' : m));
      const out = layoutText(shuffled);
      if (out === undefined) return;
      expect(ink(out)).toBe(ink(shuffled));
      expect(out.split(/\r\n|\r|\n/).length).toBeLessThanOrEqual(shuffled.split(/\r\n|\r|\n/).length);
      expect(layoutText(out)).toBe(out);
    },
  );
});
