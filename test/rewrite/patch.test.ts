import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { SourceText } from '../../src/report/source.js';
import { applySourceEdits, indentUnit, removeLines } from '../../src/rewrite/patch.js';

const src = (t: string): SourceText => new SourceText('t.py', t);
const spanOf = (text: string, needle: string, nth = 0): { start: number; end: number } => {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  if (i < 0) throw new Error(`no ${needle}`);
  return { start: i, end: i + needle.length };
};

describe('applySourceEdits', () => {
  it('inserts after a statement with its indentation, keeping trailing comments', () => {
    const t = 'def f():\n    store(win)  # keep\n    notify()\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertAfter', anchor: spanOf(t, 'store(win)'), lines: ['fence()'] }]);
    expect(r.text).toBe('def f():\n    store(win)  # keep\n    fence()\n    notify()\n');
    expect(r.insertedLines).toEqual([3]);
  });

  it('inserts after a multi-line statement at the end of its last line', () => {
    const t = 'def f():\n    store(\n        win,\n    )\n    x = 1\n';
    const anchor = { start: t.indexOf('store'), end: t.indexOf('    )\n') + 5 };
    const r = applySourceEdits(src(t), [{ kind: 'insertAfter', anchor, lines: ['a()', 'b()'] }]);
    expect(r.text).toBe('def f():\n    store(\n        win,\n    )\n    a()\n    b()\n    x = 1\n');
    expect(r.insertedLines).toEqual([5, 6]);
  });

  it('after a statement spanning several physical lines, a `;` statement goes at the indentation of its first line', () => {
    const t = 'def f():\n    s = """a\nb"""; store(win)\n    x = (1,\n         2); wait()\n';
    const r = applySourceEdits(src(t), [
      { kind: 'insertAfter', anchor: spanOf(t, 'store(win)'), lines: ['fence()'] },
      { kind: 'insertAfter', anchor: spanOf(t, 'wait()'), lines: ['inv()'] },
    ]);
    expect(r.text).toBe('def f():\n    s = """a\nb"""\n    store(win)\n    fence()\n    x = (1,\n         2)\n    wait()\n    inv()\n');
  });

  it('turns a body written on its header line into a block', () => {
    const t = 'if c: x = 1\ny = 2\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertAfter', anchor: spanOf(t, 'x = 1'), lines: ['fence()'] }]);
    expect(r.text).toBe('if c:\n    x = 1\n    fence()\ny = 2\n');
  });

  it('uses the file indentation unit for a new block', () => {
    const t = 'def f():\n  if c: x = 1\n  y = 2\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertAfter', anchor: spanOf(t, 'x = 1'), lines: ['fence()'] }]);
    expect(r.text).toBe('def f():\n  if c:\n    x = 1\n    fence()\n  y = 2\n');
  });

  it('inserts before a statement at its indentation', () => {
    const t = 'def f():\n    for i in r:\n        g()\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertBefore', anchor: spanOf(t, 'for i in r:'), lines: ['b = d()'] }]);
    expect(r.text).toBe('def f():\n    b = d()\n    for i in r:\n        g()\n');
    expect(r.insertedLines).toEqual([2]);
  });

  it('keeps CRLF line endings', () => {
    const t = 'def f():\r\n    a()\r\n    b()\r\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertAfter', anchor: spanOf(t, 'a()'), lines: ['x()'] }]);
    expect(r.text).toBe('def f():\r\n    a()\r\n    x()\r\n    b()\r\n');
  });

  it('replaces a span and adds keywords in every call shape', () => {
    const t = 'a = s(f, deps=[t])\nb = load(x)\nc = load()\nd = load(\n    x,\n)\n';
    const loads = [spanOf(t, 'load(x)'), spanOf(t, 'load()'), { start: t.indexOf('load(\n'), end: t.lastIndexOf(')') + 1 }];
    const r = applySourceEdits(src(t), [
      { kind: 'replace', span: spanOf(t, '[t]'), text: '[b0]' },
      ...loads.map((call) => ({ kind: 'addKeyword' as const, call, name: 'cache', value: 'P.B' })),
    ]);
    expect(r.text).toBe('a = s(f, deps=[b0])\nb = load(x, cache=P.B)\nc = load(cache=P.B)\nd = load(\n    x, cache=P.B,\n)\n');
  });

  it('refuses overlapping edits with a located diagnostic', () => {
    const t = 'x = f(a, b)\n';
    expect(() =>
      applySourceEdits(src(t), [
        { kind: 'replace', span: spanOf(t, 'f(a, b)'), text: 'g()' },
        { kind: 'replace', span: spanOf(t, 'a, b'), text: 'c' },
      ]),
    ).toThrow(DiagnosticError);
  });

  it('orders insertions at one place as given', () => {
    const t = 'def f():\n    for i in r:\n        w()\n    z()\n';
    const inner = spanOf(t, 'w()');
    const loop = { start: t.indexOf('for'), end: inner.end };
    const r = applySourceEdits(src(t), [
      { kind: 'insertAfter', anchor: inner, lines: ['inner()'] },
      { kind: 'insertAfter', anchor: loop, lines: ['outer()'] },
    ]);
    expect(r.text).toBe('def f():\n    for i in r:\n        w()\n        inner()\n    outer()\n    z()\n');
    expect(removeLines(r.text, r.insertedLines)).toBe(t);
  });
});

describe('indentUnit', () => {
  it('finds the smallest indentation step', () => {
    expect(indentUnit('a\n  b\n    c\n')).toBe('  ');
    expect(indentUnit('a\n')).toBe('    ');
  });
});
