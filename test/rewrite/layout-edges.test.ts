/**
 * apply on layouts Python reads in ways the physical text hides (issue 34, items 2 and 3): a
 * form feed in a statement's indentation (Python resets the column there) and a backslash
 * continuation after a `;` (the next physical line is part of the same logical line). The
 * statement stays in its function, the markers land at its real indentation, and a second
 * apply changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { applyPasses } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { SourceText } from '../../src/report/source.js';
import { applySourceEdits } from '../../src/rewrite/patch.js';
import { session } from '../session.js';

const pass = passByName('insert-comm-fence')!;
const applyOnce = (text: string): string => applyPasses(text, 't.py', [pass], { session }).text;

const kernel = (body: string): string =>
  [
    'import pypto.language as pl',
    'import pypto.language.distributed as pld',
    '',
    '',
    '@pl.program',
    'class P:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    '    def step(self, t: pl.Tile[[1, 8], pl.FP32], dst: pld.DistributedTensor[[1, 8], pl.FP32], peer: pl.Scalar[pl.INT32]):',
    body,
    '        return t',
    '',
  ].join('\n');

const STORE = 'pld.tile.remote_store(t, dst, peer, [0, 0])';

/** The statements of the kernel's function, by kind, in order. */
const body = (text: string): string[] => parseModule(text, 't.py').programs[0]!.functions[0]!.body.map((s) => s.kind);

describe('apply: form feeds in the indentation', () => {
  it('keeps a statement indented after a form feed in its function, markers at its real indentation', () => {
    const t = kernel(`\f        ${STORE}`);
    expect(body(t)).toEqual(['ExprStmt', 'Return']);
    const once = applyOnce(t);
    expect(once).toBe(kernel(`\f        ${STORE}\n        pl.system.fence()`));
    expect(body(once)).toEqual(['ExprStmt', 'ExprStmt', 'Return']);
    expect(applyOnce(once)).toBe(once);
  });

  it('reads the column after the last form feed (spaces before it do not count)', () => {
    const t = kernel(`  \f        ${STORE}`);
    const once = applyOnce(t);
    expect(once).toBe(kernel(`  \f        ${STORE}\n        pl.system.fence()`));
    expect(applyOnce(once)).toBe(once);
  });

  it('a marker after a `;` statement on a form-fed line is indented like the line', () => {
    const t = kernel(`\f        x = 1; ${STORE}`);
    const once = applyOnce(t);
    expect(once).toBe(kernel(`\f        x = 1\n        ${STORE}\n        pl.system.fence()`));
    expect(applyOnce(once)).toBe(once);
  });
});

describe('apply: backslash continuations', () => {
  it('`stmt; \\` + an indented line: the next statement goes on a line of its own, no lone backslash left', () => {
    const t = kernel(`        ${STORE}; \\\n    x = 1`);
    expect(body(t)).toEqual(['ExprStmt', 'Assign', 'Return']);
    const once = applyOnce(t);
    expect(once).toBe(kernel(`        ${STORE}\n        pl.system.fence()\n        x = 1`));
    expect(applyOnce(once)).toBe(once);
  });

  it("reads a line continued from a line holding only `\\` at the first line's indentation, as Python does", () => {
    // (What the first apply used to write: Python reads `x = 1` as a statement indented by 8.)
    const t = kernel(`        ${STORE}\n        \\\n    x = 1`);
    expect(body(t)).toEqual(['ExprStmt', 'Assign', 'Return']);
    const once = applyOnce(t);
    expect(once).toBe(kernel(`        ${STORE}\n        pl.system.fence()\n        \\\n    x = 1`));
    expect(applyOnce(once)).toBe(once);
  });

  it('a statement on a continued line gets its markers at the indentation of the logical line', () => {
    const t = kernel(`        \\\n  ${STORE}`);
    const once = applyOnce(t);
    expect(once).toBe(kernel(`        \\\n  ${STORE}\n        pl.system.fence()`));
    expect(applyOnce(once)).toBe(once);
  });
});

describe('patcher: continued lines', () => {
  const src = (t: string): SourceText => new SourceText('t.py', t);
  const at = (t: string, needle: string): { start: number; end: number } => ({
    start: t.indexOf(needle),
    end: t.indexOf(needle) + needle.length,
  });

  it('inserts before a statement at the first physical line of its logical line', () => {
    const t = 'def f():\n    \\\n  for i in r:\n        g()\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertBefore', anchor: at(t, 'for i in r:\n        g()'), lines: ['b = d()'] }]);
    expect(r.text).toBe('def f():\n    b = d()\n    \\\n  for i in r:\n        g()\n');
  });

  it("turns a body continued onto the next line into a block at the header's indentation", () => {
    const t = 'def f():\n    if c: \\\n    x = 1\n    y = 2\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertAfter', anchor: at(t, 'x = 1'), lines: ['fence()'] }]);
    expect(r.text).toBe('def f():\n    if c:\n        x = 1\n        fence()\n    y = 2\n');
  });

  it('a backslash in a comment continues nothing', () => {
    const t = 'def f():\n    a()  # note; \\\n    b()\n';
    const r = applySourceEdits(src(t), [{ kind: 'insertAfter', anchor: at(t, 'b()'), lines: ['fence()'] }]);
    expect(r.text).toBe('def f():\n    a()  # note; \\\n    b()\n    fence()\n');
  });
});
