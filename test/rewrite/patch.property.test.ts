/**
 * Patcher conservation on random programs: inserting statements after (or before) any
 * statements and then removing the inserted lines gives back the input byte for byte; the
 * patched text still parses, with the inserted statements where they were put.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { arbProgram, programText } from '../../src/gen/arb.js';
import { arbRespelling, respell } from '../../src/gen/respell.js';
import type { Stmt } from '../../src/ir/nodes.js';
import { walkStmts } from '../../src/ir/visit.js';
import { applySourceEdits, indentUnit, removeLines, type SourceEdit } from '../../src/rewrite/patch.js';

function statements(text: string): Stmt[] {
  const out: Stmt[] = [];
  for (const p of parseModule(text, 'gen.py').programs) for (const f of p.functions) walkStmts(f.body, (s) => out.push(s));
  return out;
}

/** True when the statement starts its line (not a body written on its header's line). */
function ownLine(text: string, s: Stmt): boolean {
  const ls = text.lastIndexOf('\n', s.start - 1) + 1;
  return /^[ ]*$/.test(text.slice(ls, s.start));
}

describe('patcher conservation', () => {
  test.prop([arbProgram({ maxDepth: 2 }), arbRespelling, fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 6 })], {
    numRuns: 80,
  })('insert then remove the inserted lines gives back the input', (p, r, picks) => {
    const text = respell(programText(p), r);
    // (an `elif` branch is not a place to insert next to: the patcher refuses it)
    const stmts = statements(text).filter((s) => ownLine(text, s) && !(s.kind === 'If' && text.startsWith('elif', s.start)));
    if (stmts.length === 0) return;
    const edits: SourceEdit[] = picks.map(([i, after]) => {
      const s = stmts[i % stmts.length]!;
      return after
        ? { kind: 'insertAfter', anchor: { start: s.start, end: s.end }, lines: ['pl.system.fence()'] }
        : { kind: 'insertBefore', anchor: { start: s.start, end: s.end }, lines: ['pl.system.cacheinvalid()'] };
    });
    const patched = applySourceEdits(parseModule(text, 'gen.py').source, edits);
    expect(patched.insertedLines.length).toBe(edits.length);
    expect(removeLines(patched.text, patched.insertedLines)).toBe(text);
    const markers = statements(patched.text).filter(
      (s) =>
        s.kind === 'ExprStmt' &&
        s.value.kind === 'Call' &&
        s.value.callee.kind === 'op' &&
        /^system\.(fence|cacheinvalid)$/.test(s.value.callee.name) &&
        s.value.args.length === 0,
    ).length;
    const before = statements(text).filter(
      (s) =>
        s.kind === 'ExprStmt' &&
        s.value.kind === 'Call' &&
        s.value.callee.kind === 'op' &&
        /^system\.(fence|cacheinvalid)$/.test(s.value.callee.name) &&
        s.value.args.length === 0,
    ).length;
    expect(markers - before).toBe(edits.length);
  });
});

describe('indentation unit', () => {
  // The unit as first written (a regular expression over a copy of the text with \n line ends).
  const byRegExp = (text: string): string => {
    let best = 0;
    let prev = 0;
    for (const m of text.replace(/\r\n?/g, '\n').matchAll(/^( *)\S/gm)) {
      const n = m[1]!.length;
      if (n > prev && (best === 0 || n - prev < best)) best = n - prev;
      prev = n;
    }
    return ' '.repeat(best || 4);
  };
  const line = fc.tuple(
    fc.nat({ max: 9 }),
    fc.constantFrom('', 'x', '\tx', '#c', ' ', '\u00a0y', 'pl.f()'),
    fc.constantFrom('\n', '\r\n', '\r'),
  );
  test.prop([fc.array(line, { maxLength: 30 })], { numRuns: 300 })(
    'is the smallest step of indentation, as the regular expression finds it, for any line ends',
    (lines) => {
      const text = lines.map(([n, body, nl]) => ' '.repeat(n) + body + nl).join('');
      expect(indentUnit(text)).toBe(byRegExp(text));
      expect(indentUnit(text.trimEnd())).toBe(byRegExp(text.trimEnd()));
    },
  );
});
