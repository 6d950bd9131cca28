/**
 * Properties of the canonical printer against the frontend:
 * - round-trip: parse(print(p)) is structurally equal to p for generated programs p;
 * - respelling: a non-canonical spelling of p parses to p and formats to print(p);
 * - idempotence: fmt(fmt(x)) == fmt(x).
 * Generated programs include slices and slice writes, split_aiv loops, deps= comprehensions,
 * nested tuple targets, methods without self and external (`...`) kernels, and modules of
 * JIT kernels (with and without class programs beside them).
 */
import { describe, expect } from 'vitest';
import { test } from '@fast-check/vitest';
import { parseModule } from '../../src/frontend/index.js';
import { printModule } from '../../src/ir/print.js';
import { structurallyEqual, stripSpans } from '../../src/ir/equal.js';
import { arbJitProgram, arbPrograms, programText } from '../../src/gen/arb.js';
import fc from 'fast-check';
import { arbRespelling, respell } from '../../src/gen/respell.js';
import type { Program } from '../../src/ir/nodes.js';

const fmt = (text: string): string => printModule(parseModule(text, 'gen.py'));

function expectSamePrograms(actual: Program[], expected: Program[]): void {
  if (!structurallyEqual(actual, expected)) expect(stripSpans(actual)).toEqual(stripSpans(expected));
}

describe('canonical printer properties', () => {
  test.prop([arbPrograms({ maxDepth: 3, exprDepth: 3, maxStmts: 4 })], { numRuns: 120 })(
    'parse(print(p)) equals p',
    (ps) => {
      const text = programText(ps);
      const m = parseModule(text, 'gen.py');
      expectSamePrograms(m.programs, ps);
    },
  );

  test.prop([arbPrograms({ maxDepth: 2, exprDepth: 2, maxStmts: 3 }), arbRespelling], { numRuns: 80 })(
    'a respelling parses to the same program and formats to the canonical text',
    (ps, r) => {
      const canonical = programText(ps);
      const noisy = respell(canonical, r);
      expectSamePrograms(parseModule(noisy, 'noisy.py').programs, ps);
      expect(fmt(noisy)).toBe(canonical);
    },
  );

  test.prop([arbPrograms({ maxDepth: 2, exprDepth: 2, maxStmts: 3 }), arbRespelling], { numRuns: 50 })(
    'fmt is idempotent',
    (ps, r) => {
      const once = fmt(respell(programText(ps), r));
      expect(fmt(once)).toBe(once);
    },
  );

  const arbModule = fc.tuple(
    fc.oneof(fc.constant([] as Program[]), arbPrograms({ maxDepth: 2, exprDepth: 2, maxStmts: 3 })),
    arbJitProgram({ maxDepth: 2, exprDepth: 2, maxStmts: 3 }),
  ).map(([ps, jit]) => [...ps, jit]);

  test.prop([arbModule], { numRuns: 80 })('JIT kernels: parse(print(p)) equals p', (ps) => {
    const m = parseModule(programText(ps), 'jit.py');
    expectSamePrograms(m.programs, ps);
  });

  test.prop([arbModule, arbRespelling], { numRuns: 40 })('JIT kernels: fmt is idempotent', (ps, r) => {
    const once = fmt(respell(programText(ps), r));
    expect(fmt(once)).toBe(once);
  });
});
