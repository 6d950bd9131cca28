// The one-line ground facts read without the grammar give exactly the clauses the grammar gives
// (terms, locations, order) on every rule file in the repository and on generated files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { takeFastFacts } from '../../src/datalog/syntax/fast-facts.js';
import { parseFile } from '../../src/datalog/syntax/parser.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { SourceText } from '../../src/report/source.js';

function ruleFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? ruleFiles(p) : n.endsWith('.dl') ? [p] : [];
  });
}

/** The parse, or the rendered messages of the diagnostics it throws. */
function outcome(src: SourceText, grammarOnly: boolean, minFactRun?: number): unknown {
  try {
    return parseFile(src, minFactRun === undefined ? { grammarOnly } : { grammarOnly, minFactRun });
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics.map((d) => [d.code, d.message, d.location?.start, d.location?.end]);
    throw e;
  }
}

describe('fast facts', () => {
  const files = [...ruleFiles('rules'), ...ruleFiles('specs'), ...ruleFiles(join('test', 'passes', 'fixtures'))];

  it('are most of the op catalog', () => {
    const src = new SourceText('rules/op_catalog.dl', readFileSync('rules/op_catalog.dl', 'utf8'));
    expect(takeFastFacts(src).clauses.length).toBeGreaterThan(2000);
  });

  it('takes only lines that start a statement (not the last line of a rule, nor a fact split over lines)', () => {
    const text = [
      'r(X) :-',
      '  e(X).',
      'e("a",',
      ' 1).',
      '.decl s(',
      '  x: number)',
      'e(2).',
      '.decl t(x: number)',
      'e(3). // three',
      'e(4) :- e(3).',
    ].join('\n');
    const taken = takeFastFacts(new SourceText('t.dl', text), 0).clauses.map((c) => c.loc.start);
    expect(taken).toEqual([text.indexOf('e(3).')]);
  });

  it.each(files)('%s parses to the same clauses with and without the grammar (every fact run taken, and as shipped)', (f) => {
    const src = new SourceText(f, readFileSync(f, 'utf8'));
    const reference = outcome(src, true);
    expect(outcome(src, false, 0)).toEqual(reference);
    expect(outcome(src, false)).toEqual(reference);
  });

  const str = fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s.replace(/\n/g, '')));
  const num = fc
    .oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(-9223372036854775808n, 9223372036854775807n, 9223372036854775808n))
    .map(String);
  const space = fc.constantFrom('', ' ', '  ', '\t');
  const fact = fc
    .tuple(
      fc.constantFrom('e', 'op_param', '_', 'x1'),
      fc.array(fc.tuple(space, fc.oneof(str, num), space), { minLength: 1, maxLength: 4 }),
      space,
      fc.constantFrom('', ' // c', '//"', ' x'),
    )
    .map(([n, args, s, tail]) => `${n}(${args.map(([a, v, b]) => `${a}${v}${b}`).join(',')})${s}.${tail}`);
  const other = fc.constantFrom(
    'r(X) :- e(X).',
    'r(X) :-\n  e(X).',
    'r(1) :- e("a", 2),\n  e(3).',
    '.decl e(x: number)',
    '.decl e(\n  x: number)',
    '.input e',
    '// e("x").',
    '',
    'e("a",\n 1).',
    'e(1 + 2).',
    '#include "nope.dl"',
  );
  test.prop([fc.array(fc.oneof(fact, other), { maxLength: 12 })])(
    'generated files parse the same with and without the grammar (or fail the same)',
    (lines) => {
      const src = new SourceText('g.dl', lines.join('\n'));
      expect(outcome(src, false, 0)).toEqual(outcome(src, true));
    },
  );
});
