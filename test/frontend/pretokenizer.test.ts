/** The logical-line scanner and the layout pre-tokenizer. */
import { describe, expect, it } from 'vitest';
import { moduleErrors, parseModuleIsolated } from '../../src/frontend/index.js';
import { cleanLine, DEDENT, emitChunk, INDENT } from '../../src/frontend/layout.js';
import { FLAG_DIRTY, scanLines } from '../../src/frontend/scan.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { SourceText } from '../../src/report/source.js';

const lines = (src: string): string[] => {
  const t = scanLines(src);
  return Array.from({ length: t.count }, (_, i) => `${t.indent[i]}|${src.slice(t.start[i]!, t.end[i]!)}`);
};

const show = (s: string): string => s.replaceAll(INDENT, '⇥').replaceAll(DEDENT, '⇤').replaceAll('\n', '⏎');

describe('scanLines', () => {
  it('splits logical lines, skipping blank and comment-only lines', () => {
    expect(lines('a = 1  # c\n\n   # only comment\n  b = (1,\n  # inner\n 2)\nc = \\\n  3\n')).toEqual([
      '0|a = 1',
      '2|b = (1,\n  # inner\n 2)',
      '0|c = \\\n  3',
    ]);
  });

  it('understands strings: # inside, triple quotes over lines, prefixes, escapes', () => {
    expect(lines('x = "#no"\ny = """a\n\nb""" # c\nz = r\'\\\'\' + f"{a}"\n')).toEqual([
      '0|x = "#no"',
      '0|y = """a\n\nb"""',
      "0|z = r'\\'' + f\"{a}\"",
    ]);
  });

  it('flags lines that need cleaning and records lexical errors', () => {
    const t = scanLines('a = (1,\n 2)\nb = 1\n\tc = 2\nd = "x\ne = [1\n');
    expect(Array.from(t.flags).map((f) => f & FLAG_DIRTY)).toEqual([1, 0, 0, 0, 1]);
    expect([...t.errors.entries()].map(([l, e]) => [l, e.code, e.message])).toEqual([
      [2, 'tab-indent', 'indentation uses a tab; ptolog needs spaces'],
      [3, 'syntax-error', 'this string literal is never closed'],
      [4, 'syntax-error', "'[' is never closed"],
    ]);
  });

  it('measures indentation (tabs to the next multiple of 8)', () => {
    const t = scanLines('a\n    b\n\tc\n  \td\n');
    expect(Array.from(t.indent)).toEqual([0, 4, 8, 8]);
  });

  it('handles CRLF and a BOM', () => {
    expect(lines('\uFEFFa = 1\r\n\r\n  b = (1,\r\n 2)\r\n')).toEqual(['0|a = 1', '2|b = (1,\r\n 2)']);
  });
});

describe('emitChunk', () => {
  const emit = (src: string) => {
    const t = scanLines(src);
    const s = new SourceText('t.py', src);
    return { ...emitChunk(s, t, 0, t.count, t.indent[0]!), src };
  };

  it('emits INDENT/DEDENT only for lines with content, and closes open levels', () => {
    const { out } = emit('if a:\n\n    # c\n    if b:\n        x = 1\n\ny = 2\n');
    expect(show(out)).toBe('if a:⏎⇥if b:⏎⇥x = 1⏎⇤⇤y = 2⏎');
  });

  it('folds newlines inside brackets and blanks comments, keeping lengths', () => {
    const { out, map, src } = emit('x = f(a,  # c\n      b)\n');
    expect(show(out)).toBe(`x = f(a,${' '.repeat(12)}b)⏎`);
    const b = out.indexOf('b)');
    expect(src[map.start(b)]).toBe('b');
    expect(map.end(out.indexOf('⏎'.replace('⏎', '\n')))).toBe(src.indexOf(')') + 1);
  });

  it('maps sentinels back to the line they stand for', () => {
    const { out, map, src } = emit('if a:\n    x = 1\ny = 2\n');
    expect(map.start(out.indexOf(INDENT))).toBe(src.indexOf('x = 1'));
    expect(map.start(out.indexOf(DEDENT))).toBe(src.indexOf('y = 2'));
    expect(map.start(out.indexOf('\n'))).toBe(src.indexOf(':') + 1);
  });

  it('rejects a dedent to an unknown level', () => {
    expect(() => emit('if a:\n        x = 1\n    y = 2\n')).toThrow(DiagnosticError);
  });

  it('cleanLine keeps strings intact', () => {
    const src = 'f("a # b\\\n", \\\n c)  # z';
    expect(cleanLine(src, 0, src.indexOf('  # z'), true)).toBe('f("a # b\\\n",    c)');
  });
});

describe('string literals continued by a backslash', () => {
  const kernel = (nl: string): string =>
    [
      'import pypto.language as pl',
      'import pypto.language.distributed as pld',
      '',
      '@pl.program',
      'class K:',
      '    @pl.function(type=pl.FunctionType.InCore)',
      '    def k(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):',
      '        x = "ab\\',
      'cd"; y = \'e\\',
      "f'",
      '',
    ].join(nl);

  // Python reads a backslash-newline inside a string as nothing, whichever newline it is.
  for (const [name, nl] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const) {
    it(`backslash + ${name} continues a single-quoted string (one literal, the newline dropped)`, () => {
      const m = parseModuleIsolated(kernel(nl), 'k.py');
      expect(moduleErrors(m).map((d) => d.message)).toEqual([]);
      const body = m.programs[0]!.functions[0]!.body;
      const values = body.map((s) => (s.kind === 'Assign' && s.value.kind === 'Str' ? s.value.value : null));
      expect(values).toEqual(['abcd', 'ef']);
    });
  }
});
