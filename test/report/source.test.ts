import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { SourceText } from '../../src/report/source.js';

describe('SourceText.byteOffset', () => {
  // The oracle: Node's own UTF-8 length of the prefix.
  test.prop([fc.string({ unit: 'grapheme', maxLength: 80 }), fc.nat()])(
    'equals the UTF-8 length of the text before the offset (any text, any line ends, between characters)',
    (body, n) => {
      const text = body.replace(/x/g, '\n').replace(/y/g, '\r\n').replace(/z/g, '\r');
      const src = new SourceText('t.py', text);
      let o = n % (text.length + 1);
      // Offsets fall between characters, never inside a surrogate pair.
      const before = text.charCodeAt(o - 1);
      if (before >= 0xd800 && before <= 0xdbff) o -= 1;
      expect(src.byteOffset(o)).toBe(Buffer.byteLength(text.slice(0, o), 'utf8'));
    },
  );

  test.prop([fc.string({ unit: 'grapheme-ascii', maxLength: 80 }), fc.integer({ min: -5, max: 200 })])(
    'is the character offset, clamped into the text, for ASCII text',
    (text, o) => {
      expect(new SourceText('t.py', text).byteOffset(o)).toBe(Math.max(0, Math.min(o, text.length)));
    },
  );
});
