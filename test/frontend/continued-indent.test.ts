/**
 * A logical line's indentation as CPython's tokenizer measures it (issue 34, items 2 and 3): a
 * form feed resets the column; a line that starts with backslash continuations is one logical
 * line with the next, indented by the column of the first backslash not at column 0 (else by
 * the column reached). Each case's verdict is what `python3 -c 'import ast; ast.parse(...)'`
 * (3.11) says.
 */
import { describe, expect, it } from 'vitest';
import { indentationError } from '../../src/frontend/indentation.js';
import { scanLines } from '../../src/frontend/scan.js';
import { SourceText } from '../../src/report/source.js';

/** null when the module's layout is accepted, else the diagnostic code. */
const verdict = (text: string): string | null => {
  const d = indentationError(new SourceText('t.py', text), scanLines(text));
  return d ? d.code : null;
};

const lines = (text: string): string[] => {
  const t = scanLines(text);
  return Array.from({ length: t.count }, (_, i) => `${t.indent[i]}|${text.slice(t.start[i]!, t.end[i]!)}`);
};

describe('indentation of continued and form-fed lines, as Python reads it', () => {
  const cases: Array<[string, boolean]> = [
    ['def f():\n    x = 1\n\\\n    y = 2\n', true],
    ['def f():\n    x = 1\n    \\\n  y = 2\n', true],
    ['def f():\n    x = 1\n    \\\n\n    y = 2\n', true],
    ['def f():\n    x = 1\n    \\\n    # c\n    y = 2\n', true],
    ['def f():\n    x = 1; \\\n  y = 2\n', true],
    ['def f():\n  \f  x = 1\n    y = 2\n', false],
    ['def f():\n    x = 1\n  \f  y = 2\n', false],
    ['def f():\n    x = 1\n \f\n    y = 2\n', true],
    ['def f():\n    x = 1\n\f    y = 2\n', true],
    ['def f():\n    \\\n    \\\n y = 2\n', true],
    ['def f():\n    x = 1\n  \\\n  y = 2\n', false],
    ['def f():\n    x = 1\n\\\n  \\\n  y = 2\n', false],
    ['def f():\n    x = 1\n\\\n\\\n    y = 2\n', true],
    ['def f():\n    x = 1\n    \\\n\f  y = 2\n', true],
    ['def f():\n    x = 1\n  \\\n\f  y = 2\n', false],
    ['def f():\n    x = 1\n  \\\n  \\\n    y = 2\n', false],
    ['def f():\n    x = 1\n\\\n    \\\n  \\\ny = 2\n', true],
  ];
  for (const [text, ok] of cases) {
    it(`${ok ? 'accepts' : 'rejects'} ${JSON.stringify(text)}`, () => {
      expect(verdict(text) === null).toBe(ok);
    });
  }

  it('a line continued from a line of white space and `\\` starts at its content, indented as the first line', () => {
    expect(lines('def f():\n        \\\n    x = 1\n')).toEqual(['0|def f():', '8|x = 1']);
    expect(lines('a = 1\n\f    \\\n  b = 2\n')).toEqual(['0|a = 1', '4|b = 2']);
  });
});
