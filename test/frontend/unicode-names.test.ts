/**
 * Names beyond ASCII (issue 34, item 8), as Python reads them (PEP 3131): a name starts with an
 * XID_Start character (or `_`) and goes on with XID_Continue ones, and is NFKC-normalised
 * (`ﬁle` is `file`); a character Python does not take in a name is a located syntax error.
 */
import { describe, expect, it } from 'vitest';
import { parseRule } from '../../src/frontend/dsl-parser.js';
import { moduleErrors, parseModuleIsolated } from '../../src/frontend/index.js';
import { emitChunk } from '../../src/frontend/layout.js';
import { scanLines } from '../../src/frontend/scan.js';
import type { Module, Stmt } from '../../src/ir/nodes.js';
import { walkStmts } from '../../src/ir/visit.js';
import { SourceText } from '../../src/report/source.js';

const kernel = (sig: string, body: string[]): string =>
  [
    'import pypto.language as pl',
    '',
    '',
    '@pl.program',
    'class P:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    `    def ${sig}:`,
    ...body.map((l) => `        ${l}`),
    '',
  ].join('\n');

/** The module read with every statement parsed (no statement-group cache). */
function read(text: string): Module {
  return parseModuleIsolated(text, 'm.py', { blocks: { groupCache: false } });
}

/** Names assigned by the statements of the first function, in order. */
const targets = (m: Module): string[] => {
  const out: string[] = [];
  walkStmts(m.programs[0]!.functions[0]!.body, (s: Stmt) => {
    if (s.kind === 'Assign') for (const t of s.targets) if (t.kind === 'Name') out.push(t.id);
  });
  return out;
};

describe('names beyond ASCII', () => {
  it('reads `café = x + 1` and `def ring_ステップ(`, read as names', () => {
    const text = kernel('ring_ステップ(self, x: pl.Scalar[pl.INT32])', ['café = x + 1', 'données = café * 2', 'return données']);
    const hand = read(text);
    expect(moduleErrors(hand)).toEqual([]);
    expect(hand.programs[0]!.functions[0]!.name).toBe('ring_ステップ');
    expect(targets(hand)).toEqual(['café', 'données']);
  });

  it('normalises names with NFKC, as Python does: `ﬁle` is `file`, `ｘ` is `x`, `e` + U+0301 is `é`', () => {
    const text = kernel('k(self, ﬁle: pl.Scalar[pl.INT32])', ['ｘ = file + 1', 'e\u0301 = x', '𝑦 = ｉｆ', 'return y']);
    const hand = read(text);
    expect(moduleErrors(hand)).toEqual([]);
    const f = hand.programs[0]!.functions[0]!;
    expect(f.params.map((p) => p.name)).toEqual(['file']);
    expect(targets(hand)).toEqual(['x', 'é', 'y']);
  });

  it('the parser reads a body with such names', () => {
    const text = 'café = x + 1\nf(ステップ=ｘ, b=a.ﬁeld)\n';
    const chunk = emitChunk(new SourceText('m.py', text), scanLines(text), 0, 2, 0);
    const fail = (): never => {
      throw new Error('reported');
    };
    const ir = parseRule<Stmt[]>(chunk, 'Chunk', { report: { unsupported: fail, syntax: fail }, constants: new Map() });
    expect(ir).toBeDefined();
    expect(JSON.stringify(ir)).toContain('"ステップ"');
    expect(JSON.stringify(ir)).toContain('"field"');
  });

  it('a call to a JIT kernel with such a name is a call to that kernel', () => {
    const text = [
      'import pypto.language as pl',
      '',
      '',
      '@pl.jit.incore',
      'def 核(a: pl.Tensor[[8, 64], pl.FP32]):',
      '    return a',
      '',
      '',
      '@pl.jit.inline',
      'def appel(a: pl.Tensor[[8, 64], pl.FP32]):',
      '    b = 核(a)',
      '    return b',
      '',
    ].join('\n');
    const m = parseModuleIsolated(text, 'm.py');
    expect(moduleErrors(m)).toEqual([]);
    const call = m.programs[0]!.functions[1]!.body[0]!;
    expect(call.kind === 'Assign' && call.value.kind === 'Call' ? call.value.callee : null).toEqual({
      kind: 'self',
      name: '核',
      bare: true,
    });
  });

  it('a character Python does not take in a name is a located syntax error', () => {
    for (const [line, bad] of [
      ['x→ = 1', '→'],
      ['y = ·x', '·'],
      ['z = \u0301e', '\u0301'],
    ] as const) {
      const text = kernel('k(self)', [line, 'return x']);
      const errs = moduleErrors(read(text));
      expect(errs.map((d) => d.code)).toEqual(['syntax-error']);
      expect(errs[0]!.location!.start).toBe(text.indexOf(bad));
    }
  });
});
