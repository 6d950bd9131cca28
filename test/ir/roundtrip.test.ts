/**
 * Properties of the canonical printer against the frontend:
 * - round-trip: parse(print(p)) is structurally equal to p for generated programs p;
 * - respelling: a non-canonical spelling of p parses to p and formats to print(p);
 * - idempotence: fmt(fmt(x)) == fmt(x);
 * - comments: fmt keeps every comment of a respelling with comments (leading, trailing, header),
 *   and parse(fmt(x)) equals parse(x) with the comments attached to the same nodes.
 * Generated programs include slices and slice writes, split_aiv loops, deps= comprehensions,
 * nested tuple targets, methods without self and external (`...`) kernels, and modules of
 * JIT kernels (with and without class programs beside them).
 */

import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { scanLines } from '../../src/frontend/scan.js';
import { arbJitProgram, arbPrograms, programText } from '../../src/gen/arb.js';
import { arbRespelling, respell } from '../../src/gen/respell.js';
import { stripSpans, structurallyEqual } from '../../src/ir/equal.js';
import type { Program } from '../../src/ir/nodes.js';
import { printModule } from '../../src/ir/print.js';
import { runs as scaled } from '../runs.js';

const fmt = (text: string): string => printModule(parseModule(text, 'gen.py'));

/** A copy without the kept comments (a respelling adds comments the generated program does not have). */
function withoutComments<T>(x: T): T {
  if (Array.isArray(x)) return x.map(withoutComments) as T;
  if (x !== null && typeof x === 'object' && !(x instanceof Map)) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) if (k !== 'comments') o[k] = withoutComments(v);
    return o as T;
  }
  return x;
}

/** The comments of a text (by the scanner), sorted: fmt may move a statement (and its comments) but keeps every one. */
const commentLines = (text: string): string[] => {
  const t = scanLines(text);
  return [...t.comments].map((at) => /^#[^\r\n]*/.exec(text.slice(at))![0].trimEnd()).sort();
};

/** Text with its comment lines removed (what fmt printed before it kept comments). */
const dropCommentLines = (text: string): string =>
  text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/^\n+/, '');

function expectSamePrograms(actual: Program[], expected: Program[]): void {
  if (!structurallyEqual(actual, expected)) expect(stripSpans(actual)).toEqual(stripSpans(expected));
}

describe('canonical printer properties', () => {
  test.prop([arbPrograms({ maxDepth: 3, exprDepth: 3, maxStmts: 4 })], scaled(120))('parse(print(p)) equals p', (ps) => {
    const text = programText(ps);
    const m = parseModule(text, 'gen.py');
    expectSamePrograms(m.programs, ps);
  });

  test.prop([arbPrograms({ maxDepth: 2, exprDepth: 2, maxStmts: 3 }), arbRespelling], scaled(80))(
    'a respelling parses to the same program and formats to the canonical text',
    (ps, r) => {
      const canonical = programText(ps);
      const noisy = respell(canonical, r);
      expectSamePrograms(withoutComments(parseModule(noisy, 'noisy.py').programs), ps);
      expect(dropCommentLines(fmt(noisy))).toBe(canonical);
    },
  );

  test.prop([arbPrograms({ maxDepth: 2, exprDepth: 2, maxStmts: 3 }), arbRespelling], scaled(50))('fmt is idempotent', (ps, r) => {
    const once = fmt(respell(programText(ps), r));
    expect(fmt(once)).toBe(once);
  });

  test.prop([arbPrograms({ maxDepth: 2, exprDepth: 2, maxStmts: 3 }), arbRespelling], scaled(60))(
    'comments: fmt keeps every comment, parse(fmt(x)) equals parse(x) with its comments, fmt is idempotent',
    (ps, r) => {
      const noisy = respell(programText(ps), { ...r, comments: true });
      const m = parseModule(noisy, 'noisy.py');
      const once = printModule(m);
      expect(commentLines(once)).toEqual(commentLines(noisy));
      const again = parseModule(once, 'once.py');
      expectSamePrograms(again.programs, m.programs);
      expect(again.headerComments).toEqual(m.headerComments);
      expect(printModule(again)).toBe(once);
    },
  );

  /** Whether `x` holds a plain call `f(...)` of a name in `names`. */
  const callsName = (x: unknown, names: ReadonlySet<string>): boolean => {
    if (Array.isArray(x)) return x.some((v) => callsName(v, names));
    if (x === null || typeof x !== 'object') return false;
    const o = x as Record<string, unknown>;
    const e = o['expr'] as { kind?: string; id?: string } | undefined;
    if (o['kind'] === 'other' && e?.kind === 'Name' && e.id !== undefined && names.has(e.id)) return true;
    return Object.values(o).some((v) => callsName(v, names));
  };

  // The frontend reads a bare `k(...)` as the call of the module's JIT kernel `k` in every function
  // of the module, class programs included; a class program's plain call of a name that a JIT
  // kernel of the same module also has is therefore not the generated plain call (seed 2092406207).
  const arbModule = fc
    .tuple(
      fc.oneof(fc.constant([] as Program[]), arbPrograms({ maxDepth: 2, exprDepth: 2, maxStmts: 3 })),
      arbJitProgram({ maxDepth: 2, exprDepth: 2, maxStmts: 3 }),
    )
    .filter(([ps, jit]) => !callsName(ps, new Set(jit.functions.map((f) => f.name))))
    .map(([ps, jit]) => [...ps, jit]);

  test.prop([arbModule], scaled(80))('JIT kernels: parse(print(p)) equals p', (ps) => {
    const m = parseModule(programText(ps), 'jit.py');
    expectSamePrograms(m.programs, ps);
  });

  test.prop([arbModule, arbRespelling], scaled(40))('JIT kernels: fmt is idempotent and keeps every comment', (ps, r) => {
    const noisy = respell(programText(ps), r);
    const once = fmt(noisy);
    expect(fmt(once)).toBe(once);
    expect(commentLines(once)).toEqual(commentLines(noisy));
  });
});
