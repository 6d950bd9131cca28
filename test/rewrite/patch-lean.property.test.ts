/**
 * The lean patcher (edits and changes as columns, the output joined once) against the patcher
 * as first written (test/rewrite/reference-patch.ts): on random programs, with \n or \r\n
 * line ends, `;`-separated statements and bodies on their header's line, and random mixes of
 * every edit kind (lines that are blank or hold a line break included), both give the same
 * text and inserted line numbers, or refuse with the same located diagnostics.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { arbProgram, programText } from '../../src/gen/arb.js';
import { arbRespelling, respell } from '../../src/gen/respell.js';
import type { Span, Stmt } from '../../src/ir/nodes.js';
import { walkStmts } from '../../src/ir/visit.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import type { SourceText } from '../../src/report/source.js';
import { applySourceEdits, type PatchResult, type SourceEdit } from '../../src/rewrite/patch.js';
import { referencePatch } from './reference-patch.js';

/** A kernel with the layouts the patcher treats specially: `a; b`, `if c: x`, an elif chain. */
const SPECIAL = [
  'import pypto.language as pl',
  '',
  '',
  '@pl.program',
  'class P:',
  '    @pl.function(type=pl.FunctionType.InCore)',
  '    def f(self, x: pl.Tensor[[8, 8], pl.FP32]):',
  '        a = 1; b = pl.load(x, [0, 0], [8, 8])',
  '        if a: c = pl.load(x, [0, 0], [8, 8]); pl.system.fence()',
  '        for i in pl.range(4):',
  '            d = 4;  pl.system.fence()  # both',
  '        if a:',
  '            e = 1',
  '        elif a:',
  '            e = 2',
  '        return x',
  '',
].join('\n');

type Pick = [number, number, number, number];
const LINES: string[][] = [['pl.system.fence()'], ['a()', 'b()'], [''], ['   '], ['x = 1\ny = 2'], [], ['t\r'], ['q = pl.f(x)', '']];

/** The edit each pick names on the statements of `text` (a span inside one: a call's, a statement's). */
function editsOf(stmts: readonly Stmt[], picks: readonly Pick[]): SourceEdit[] {
  return picks.map(([i, kind, variant, cut]) => {
    const s = stmts[i % stmts.length]!;
    const anchor: Span = { start: s.start, end: s.end };
    const lines = LINES[variant % LINES.length]!;
    const value = s.kind === 'Assign' || s.kind === 'ExprStmt' ? s.value : null;
    const inner: Span = value ? { start: value.start, end: value.end } : { start: s.start, end: Math.max(s.start, s.end - (cut % 3)) };
    switch (kind % 5) {
      case 0:
        return { kind: 'insertAfter', anchor, lines };
      case 1:
        return { kind: 'insertBefore', anchor, lines };
      case 2:
        return { kind: 'replace', span: inner, text: cut % 2 === 0 ? '[b0]' : '' };
      case 3:
        return { kind: 'deleteRange', span: { start: inner.start, end: inner.start + (cut % Math.max(1, inner.end - inner.start)) } };
      default:
        return { kind: 'addKeyword', call: inner, name: 'cache', value: 'pl.CachePolicy.BYPASS' };
    }
  });
}

/** The result of a patcher, or the diagnostics it refused with. */
function outcome(f: (s: SourceText, e: readonly SourceEdit[]) => PatchResult, source: SourceText, edits: readonly SourceEdit[]): unknown {
  try {
    return f(source, edits);
  } catch (e) {
    if (e instanceof DiagnosticError)
      return e.diagnostics.map((d) => ({ code: d.code, message: d.message, start: d.location?.start, end: d.location?.end }));
    throw e;
  }
}

const arbText = fc.oneof(
  fc.tuple(arbProgram({ maxDepth: 2 }), arbRespelling).map(([p, r]) => respell(programText(p), r)),
  fc.constant(SPECIAL),
);

describe('lean patcher', () => {
  test.prop([arbText, fc.boolean(), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 })], {
    numRuns: 150,
  })('patches exactly as the patcher as first written', (lf, crlf, picks) => {
    const text = crlf ? lf.replace(/\n/g, '\r\n') : lf;
    const m = parseModule(text, 'gen.py');
    const stmts: Stmt[] = [];
    for (const p of m.programs) for (const f of p.functions) walkStmts(f.body, (s) => stmts.push(s));
    if (stmts.length === 0) return;
    const edits = editsOf(stmts, picks);
    expect(outcome(applySourceEdits, m.source, edits)).toEqual(outcome(referencePatch, m.source, edits));
  });

  // Insertions alone rarely conflict: many at once, after statements that end together (a
  // loop and its last statement) and before ones that start a line or follow a `;`.
  test.prop(
    [
      arbText,
      fc.boolean(),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 1 }), fc.nat({ max: 1 }), fc.nat()), { minLength: 2, maxLength: 16 }),
    ],
    { numRuns: 150 },
  )('inserts exactly as the patcher as first written', (lf, crlf, picks) => {
    const text = crlf ? lf.replace(/\n/g, '\r\n') : lf;
    const m = parseModule(text, 'gen.py');
    const stmts: Stmt[] = [];
    for (const p of m.programs) for (const f of p.functions) walkStmts(f.body, (s) => stmts.push(s));
    if (stmts.length === 0) return;
    const edits = editsOf(stmts, picks);
    expect(outcome(applySourceEdits, m.source, edits)).toEqual(outcome(referencePatch, m.source, edits));
  });
});
