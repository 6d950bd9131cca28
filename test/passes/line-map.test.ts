// Where a patched text's lines come from (the default stage locates a later contract's findings
// in the file as written through it).
import { describe, expect, it } from 'vitest';
import { composeLineMaps, lineMapOf } from '../../src/passes/line-map.js';
import { SourceText } from '../../src/report/source.js';

const text = (...lines: string[]): SourceText => new SourceText('k.py', `${lines.join('\n')}\n`);

describe('lineMapOf', () => {
  it('maps kept, inserted, deleted and edited lines', () => {
    const before = text('def f():', '    pl.func_attr({"a": 1})', '    t = pl.load(x, [0, 0])', '    pl.store(t, w)', '    return t');
    const after = text('def f():', '    t = pl.load(x, [0, 0], cache=B)', '    pl.store(t, w)', '    pl.system.fence()', '    return t');
    // line 2 is line 3 edited (line 2 deleted); line 4 is inserted after line 4.
    expect([...lineMapOf(before, after)]).toEqual([1, 3, 4, -4, 5, 6]);
  });

  it('composes: an inserted line stays inserted, a kept line goes back to the first text', () => {
    const a = text('x = 1', 'y = 2');
    const b = text('x = 1', 'z = 0', 'y = 2');
    const c = text('w = 9', 'x = 1', 'z = 0', 'y = 2');
    expect([...composeLineMaps(lineMapOf(a, b), lineMapOf(b, c))]).toEqual([0, 1, -1, 2, 3]);
  });
});
