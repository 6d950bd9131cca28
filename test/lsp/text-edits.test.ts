import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { suppressionEdit, textEdits } from '../../src/lsp/text-edits.js';

const doc = (text: string): TextDocument => TextDocument.create('file:///k.py', 'python', 1, text);
const lines = fc.array(fc.constantFrom('a', 'b', '    pl.system.fence()', '', 'x = 1', '\t# c'), { maxLength: 12 });
const eol = fc.constantFrom('\n', '\r\n');

describe('textEdits', () => {
  test.prop([lines, lines, eol, fc.boolean()])('applied together they give exactly the new text', (a, b, nl, final) => {
    const before = a.join(nl) + (final ? nl : '');
    const after = b.join(nl) + (final ? nl : '');
    const d = doc(before);
    expect(TextDocument.applyEdits(d, textEdits(d, after))).toBe(after);
  });

  it('an insertion is one edit at the line it goes to, touching nothing else', () => {
    const d = doc('a\nb\nc\n');
    expect(textEdits(d, 'a\nb\nX\nc\n')).toEqual([
      { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, newText: 'X\n' },
    ]);
  });
});

describe('suppressionEdit', () => {
  it('adds the comment above the line with its indentation, in the file newline style', () => {
    const d = doc('for i in x:\r\n    pl.store(a)\r\n');
    expect(TextDocument.applyEdits(d, [suppressionEdit(d, 1, 'missing-marker')])).toBe(
      'for i in x:\r\n    # ptolog: ignore[missing-marker]\r\n    pl.store(a)\r\n',
    );
  });

  it('merges into a suppression comment already above, once per code', () => {
    const d = doc('    # ptolog: ignore[contract-violation]\n    pl.store(a)\n');
    const once = TextDocument.applyEdits(d, [suppressionEdit(d, 1, 'missing-marker')]);
    expect(once).toBe('    # ptolog: ignore[contract-violation, missing-marker]\n    pl.store(a)\n');
    const d2 = doc(once);
    expect(TextDocument.applyEdits(d2, [suppressionEdit(d2, 1, 'missing-marker')])).toBe(once);
  });
});
