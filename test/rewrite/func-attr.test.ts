import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { attrEntries, attrKey } from '../../src/ir/func-attrs.js';
import type { FunctionDef } from '../../src/ir/nodes.js';
import { printExpr } from '../../src/ir/print.js';
import { SourceText } from '../../src/report/source.js';
import { removeFuncAttrs } from '../../src/rewrite/func-attr.js';
import { applySourceEdits } from '../../src/rewrite/patch.js';

/** A module whose function `k` opens with `prologue` (lines at the body's indentation). */
function moduleText(prologue: string): string {
  const body = prologue
    .split('\n')
    .map((l) => `        ${l}`)
    .join('\n');
  return `import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function\n    def k(self, x: pl.Tensor[[4], pl.FP32]):\n${body}\n        y = x\n`;
}

const funcOf = (text: string): FunctionDef => parseModule(text, 't.py').programs[0]!.functions[0]!;

/** The function's attributes as `key=value` strings, its lines merged. */
const attrsOf = (f: FunctionDef): string[] => attrEntries(f).map((e) => `${attrKey(e)}=${printExpr(e.value)}`);

/** `text` with `keys` removed by remove_func_attr; checks the edited tree against the text's re-parse. */
function removed(text: string, keys: string[]): string {
  const f = funcOf(text);
  const edits = removeFuncAttrs(f, new Set(keys), text);
  const out = applySourceEdits(new SourceText('t.py', text), edits).text;
  expect(attrsOf(funcOf(out))).toEqual(attrsOf(f));
  expect(funcOf(out).attrs.length).toBe(f.attrs.length);
  return out;
}

describe('remove_func_attr', () => {
  it('removes an entry from whichever pl.func_attr line holds it, and a line left empty', () => {
    const t = moduleText('pl.func_attr({"split": 2})\npl.func_attr({"cache_policy": [(0, 1)]})');
    expect(removed(t, ['cache_policy'])).toBe(moduleText('pl.func_attr({"split": 2})'));
    const shared = moduleText('pl.func_attr({"split": 2})\npl.func_attr({"cache_policy": [(0, 1)], "tag": "t"})');
    expect(removed(shared, ['cache_policy'])).toBe(moduleText('pl.func_attr({"split": 2})\npl.func_attr({"tag": "t"})'));
    const last = moduleText('pl.func_attr({"tag": "t", "cache_policy": [(0, 1)]})');
    expect(removed(last, ['cache_policy'])).toBe(moduleText('pl.func_attr({"tag": "t"})'));
  });

  it('removes several keys of one line at once, and a statement written over several lines', () => {
    const t = moduleText('pl.func_attr({"a": 1, "b": 2, "c": 3, "d": 4})');
    expect(removed(t, ['a', 'c', 'd'])).toBe(moduleText('pl.func_attr({"b": 2})'));
    expect(removed(t, ['b', 'c'])).toBe(moduleText('pl.func_attr({"a": 1, "d": 4})'));
    const spread = moduleText('pl.func_attr({"split": 2})\npl.func_attr(\n    {"cache_policy": [(0, 1)]}  # gone\n)');
    expect(removed(spread, ['cache_policy'])).toBe(moduleText('pl.func_attr({"split": 2})'));
  });

  it('keeps the other statement of a physical line', () => {
    const after = moduleText('pl.func_attr({"split": 2}); pl.func_attr({"cache_policy": [(0, 1)]})');
    expect(removed(after, ['cache_policy'])).toBe(moduleText('pl.func_attr({"split": 2})'));
    const before = moduleText('pl.func_attr({"cache_policy": [(0, 1)]}); pl.func_attr({"split": 2})');
    expect(removed(before, ['cache_policy'])).toBe(moduleText('pl.func_attr({"split": 2})'));
  });

  it('removes a line of a CRLF file with its newline', () => {
    const crlf = (t: string): string => t.replace(/\n/g, '\r\n');
    const t = crlf(moduleText('pl.func_attr({"split": 2})\npl.func_attr({"cache_policy": [(0, 1)]})'));
    expect(removed(t, ['cache_policy'])).toBe(crlf(moduleText('pl.func_attr({"split": 2})')));
  });

  it('leaves a function without the key as it is', () => {
    const t = moduleText('pl.func_attr({"split": 2})');
    expect(removeFuncAttrs(funcOf(t), new Set(['cache_policy']), t)).toEqual([]);
  });

  // Any split of entries into lines, any set of keys removed: the text re-parses to the edited tree.
  const arbCase = fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1, maxLength: 5 })
    .chain((keys) =>
      fc.tuple(fc.constant(keys), fc.array(fc.boolean(), { minLength: keys.length, maxLength: keys.length }), fc.subarray(keys)),
    );
  test.prop([arbCase])('the patched text re-parses to the edited tree, the kept entries in order', ([keys, breaks, gone]) => {
    const lines: string[][] = [[]];
    keys.forEach((k, i) => {
      if (i > 0 && breaks[i]) lines.push([]);
      lines[lines.length - 1]!.push(`"${k}": ${i}`);
    });
    const text = moduleText(lines.map((l) => `pl.func_attr({${l.join(', ')}})`).join('\n'));
    const out = removed(text, gone);
    expect(attrsOf(funcOf(out))).toEqual(keys.filter((k) => !gone.includes(k)).map((k) => `${k}=${keys.indexOf(k)}`));
  });
});
