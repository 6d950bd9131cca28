/**
 * Fuzz: random mutations of valid programs (deleted / duplicated / inserted characters, lines,
 * indentation) never raise anything but a located diagnostic.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { renderDiagnostic } from '../../src/report/text.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const seeds: string[] = [readFileSync(join(here, 'fixtures', 'constructs.py'), 'utf8')];
const examples = join(here, '..', '..', 'examples');
for (const f of readdirSync(examples)) {
  if (f.endsWith('.py')) seeds.push(readFileSync(join(examples, f), 'utf8'));
}

type Mutation =
  | { kind: 'delChar' | 'dupChar'; at: number }
  | { kind: 'insChar'; at: number; ch: string }
  | { kind: 'delLine' | 'dupLine' | 'indent' | 'dedent' | 'tab' | 'swap'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delChar' as const, 'dupChar' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insChar' as const),
    at: fc.nat(),
    ch: fc.constantFrom(
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ':',
      ',',
      '=',
      '.',
      '"',
      "'",
      '#',
      '\\',
      '\t',
      '\n',
      ' ',
      '@',
      'x',
      '0',
      '\x01',
      '\x02',
      '"""',
    ),
  }),
  fc.record({
    kind: fc.constantFrom('delLine' as const, 'dupLine' as const, 'indent' as const, 'dedent' as const, 'tab' as const, 'swap' as const),
    at: fc.nat(),
  }),
);

function apply(src: string, m: Mutation): string {
  if (m.kind === 'delChar' || m.kind === 'dupChar' || m.kind === 'insChar') {
    const i = src.length === 0 ? 0 : m.at % src.length;
    if (m.kind === 'delChar') return src.slice(0, i) + src.slice(i + 1);
    if (m.kind === 'dupChar') return src.slice(0, i) + (src[i] ?? '') + src.slice(i);
    return src.slice(0, i) + (m.kind === 'insChar' ? m.ch : '') + src.slice(i);
  }
  const lines = src.split('\n');
  const i = m.at % lines.length;
  switch (m.kind) {
    case 'delLine':
      lines.splice(i, 1);
      break;
    case 'dupLine':
      lines.splice(i, 0, lines[i]!);
      break;
    case 'indent':
      lines[i] = `  ${lines[i]}`;
      break;
    case 'dedent':
      lines[i] = lines[i]!.replace(/^ {1,3}/, '');
      break;
    case 'tab':
      lines[i] = `\t${lines[i]!.trimStart()}`;
      break;
    case 'swap':
      if (i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
      break;
  }
  return lines.join('\n');
}

function check(src: string): void {
  try {
    parseModule(src, 'fuzz.py');
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    for (const d of e.diagnostics) {
      expect(d.location).toBeDefined();
      const { start, end } = d.location!;
      expect(start).toBeGreaterThanOrEqual(0);
      expect(end).toBeGreaterThanOrEqual(start);
      expect(end).toBeLessThanOrEqual(src.length);
      expect(d.message.length).toBeGreaterThan(0);
      expect(renderDiagnostic(d)).toContain('fuzz.py:');
    }
  }
}

describe('fuzz', () => {
  it('mutated programs give a program or a located diagnostic', () => {
    fc.assert(
      fc.property(fc.nat({ max: seeds.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), (s, ms) => {
        let src = seeds[s]!;
        for (const m of ms) src = apply(src, m);
        check(src);
      }),
      { numRuns: Number(process.env['PTOLOG_FUZZ_RUNS'] ?? 1000) },
    );
  });

  it('random byte soup inside a function body', () => {
    const head = 'import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        ';
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'ab1 ()[]{}:;,.=+-*/<>!"\'#\\\n\t@_lambdaifforwhilewithreturnpass'.split('')),
          maxLength: 80,
        }),
        (body) => {
          check(`${head + body}\n`);
        },
      ),
      { numRuns: Number(process.env['PTOLOG_FUZZ_RUNS'] ?? 1000) },
    );
  });

  it('deeply nested expressions give a diagnostic, not a crash', () => {
    const head = 'import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        x = ';
    check(`${head + '('.repeat(5000)}1${')'.repeat(5000)}\n`);
    check(`${head + '-'.repeat(20000)}1\n`);
  });
});
