/**
 * The DSL parser reads the whole language of docs/input-language.md:
 * every spec and example module, generated programs (respelled) and large generated kernels
 * read without a diagnostic and round-trip through the printer; and each construct the DSL
 * does not support, and each syntax error, is reported where and as it was when the Ohm
 * grammar described it (the table below was recorded from it).
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { moduleErrors, parseModuleIsolated } from '../../src/frontend/index.js';
import { arbPrograms, programText } from '../../src/gen/arb.js';
import { commKernelText, orchestrationText } from '../../src/gen/large.js';
import { arbRespelling, respell } from '../../src/gen/respell.js';
import { printModule } from '../../src/ir/print.js';
import { runs as scaled } from '../runs.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

function pyFiles(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...pyFiles(p));
    else if (f.endsWith('.py')) out.push(p);
  }
  return out;
}

/** A module without diagnostics prints to text that reads back to the same printed text. */
function roundTrips(text: string): void {
  const m = parseModuleIsolated(text, 'm.py');
  expect(moduleErrors(m).map((d) => d.message)).toEqual([]);
  const printed = printModule(m);
  expect(printModule(parseModuleIsolated(printed, 'p.py'))).toBe(printed);
}

const kernel = (body: string): string =>
  [
    'import pypto.language as pl',
    '',
    '',
    '@pl.program',
    'class P:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    '    def k(self, x: pl.Scalar[pl.INT32], y: pl.Scalar[pl.INT32]):',
    ...body.split('\n').map((l) => `        ${l}`),
    '        return x',
    '',
  ].join('\n');

const header = (line: string): string =>
  [
    'import pypto.language as pl',
    '',
    '',
    '@pl.program',
    'class P:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    line,
    '        return x',
    '',
  ].join('\n');

/** Body text (or a `def` line) and the diagnostics it gives: code@start-end: message. */
const REPORTED: [string, string[]][] = [
  ['x = y or .5', []],
  ['x = y.0', ['syntax-error@176-177: expected a name']],
  ['x = y..z', ['syntax-error@175-176: expected end of line']],
  ['x = a if b else c', ['unsupported-construct@174-187: conditional expressions (x if c else y) are not supported inside a @pl.program']],
  ['x += 1', ["unsupported-construct@170-176: augmented assignment '+=' is not supported; write x = x + ..."]],
  ['del x', ["unsupported-construct@170-175: 'del' statements are not supported inside a @pl.program"]],
  [
    'x = [a for a in b for c in d]',
    [
      "syntax-error@174-199: a deps= comprehension supports a single 'for' clause; inline the inner generator(s) or write a single flat 'for ... in ...'",
    ],
  ],
  ['x = {1, 2}', ['unsupported-construct@174-180: set literals are not supported inside a @pl.program']],
  ['x = f(*a)', ["unsupported-construct@176-178: '*' arguments are not supported inside a @pl.program"]],
  ['x = f(**a)', ["unsupported-construct@176-179: '**' arguments are not supported inside a @pl.program"]],
  ['x = lambda: 1', ['unsupported-construct@174-183: lambda is not supported inside a @pl.program']],
  ['x = 0x', ["syntax-error@174-176: '0x' is not a valid number"]],
  ['x = 1j', ['unsupported-construct@174-176: complex numbers are not supported inside a @pl.program']],
  [
    'x = f"a"',
    [
      'unsupported-construct@174-178: f-strings are not supported inside a @pl.program (but as an argument of pl.static_print / pl.static_assert)',
    ],
  ],
  ['x = a @ b', ["unsupported-construct@176-177: the '@' operator is not supported inside a @pl.program"]],
  ['a < b < c', ['unsupported-construct@170-179: chained comparisons are not supported; combine them with and']],
  ['x = y = 1', ['unsupported-construct@170-179: chained assignments (a = b = c) are not supported inside a @pl.program']],
  ['x: int', ['unsupported-construct@170-176: an annotation without a value is not supported inside a @pl.program']],
  ['while c:\n    pass\nelse:\n    pass', ["unsupported-construct@204-209: 'else' on a while loop is not supported"]],
  [
    'x = a[1:2:3]',
    ["unsupported-construct@179-181: a slice step is not supported in a tensor or tile subscript; write 'start:stop' without a step"],
  ],
  ['for x in y:\n    pass\nelse:\n    pass', ["unsupported-construct@207-212: 'else' on a for loop is not supported"]],
  ['with a as (b, c):\n    pass', ["unsupported-construct@180-186: the target of 'as' must be a single name"]],
  [
    'x = ...',
    [
      "unsupported-construct@174-177: '...' is only read as the whole body of a function (an external kernel or an abstract SubWorker); write pass for an empty block",
    ],
  ],
  ['x = +1', ["unsupported-construct@174-175: unary '+' is not supported inside a @pl.program"]],
  ['x = →', ['syntax-error@174-175: expected an expression']],
  ['x = a→b', ['syntax-error@175-176: expected end of line']],
  ['f(a=1, b)', ['syntax-error@177-178: a positional argument cannot follow a keyword argument']],
  ['x = 1 if', ['syntax-error@178-178: expected an expression']],
  ['try:\n    pass', ["unsupported-construct@170-174: 'try' statements are not supported inside a @pl.program"]],
  ['x = (y := 1)', ["unsupported-construct@175-181: ':=' assignment expressions are not supported inside a @pl.program"]],
  ['x = (a for a in b)', ['unsupported-construct@174-188: generator expressions are not supported inside a @pl.program']],
  ['x = {a: b for a in c}', ['unsupported-construct@174-191: dict comprehensions are not supported inside a @pl.program']],
  ['x = {a for a in c}', ['unsupported-construct@174-188: set comprehensions are not supported inside a @pl.program']],
  ['x = {**a}', ["unsupported-construct@175-178: '**' in a dict literal is not supported inside a @pl.program"]],
  ['yield x', ["unsupported-construct@170-177: 'yield' (use pl.yield_) is not supported inside a @pl.program"]],
  ['x = await y', ["unsupported-construct@174-179: 'await' is not supported inside a @pl.program"]],
  ['import os', ['unsupported-construct@170-179: imports are not supported inside a @pl.program']],
  ['from a import b', ['unsupported-construct@170-185: imports are not supported inside a @pl.program']],
  ['global g', ["unsupported-construct@170-178: 'global' statements are not supported inside a @pl.program"]],
  ['assert x', ["unsupported-construct@170-178: 'assert' statements are not supported inside a @pl.program"]],
  ['raise E', ["unsupported-construct@170-177: 'raise' statements are not supported inside a @pl.program"]],
  ['def g():\n    pass', ['unsupported-construct@170-178: nested function definitions are not supported inside a @pl.program']],
  ['class C:\n    pass', ['unsupported-construct@170-178: nested classes are not supported inside a @pl.program']],
  [
    '@d\ndef g():\n    pass',
    [
      'unsupported-construct@170-172: decorated definitions are not supported inside a @pl.program',
      'unsupported-construct@181-189: nested function definitions are not supported inside a @pl.program',
    ],
  ],
  ['async def g():\n    pass', ["unsupported-construct@170-184: 'async' statements are not supported inside a @pl.program"]],
  ['x = [a async for a in b]', ["syntax-error@174-194: a deps= comprehension cannot be 'async for'"]],
  [
    'x = [a for (a, b) in c]',
    ["syntax-error@181-187: a deps= comprehension target must be a single name; use 'for i in ...', not 'for i, j in ...'"],
  ],
  ['x = not', ['syntax-error@177-177: expected an expression']],
  ['x = a.', ['syntax-error@176-176: expected a name']],
  ['x = a[', ["syntax-error@175-176: '[' is never closed"]],
  ['x = f(a b)', ["syntax-error@178-179: expected ')' or ','"]],
  ['x = f(a,, b)', ["syntax-error@178-179: expected ')'"]],
  ['if x\n    pass', ["syntax-error@174-174: expected ':' after the if condition"]],
  ['if x:\npass', ['syntax-error@184-188: expected an indented block']],
  ['else:\n    pass', ["syntax-error@170-174: 'else' without a matching 'if' at this indentation"]],
  ['elif x:\n    pass', ["syntax-error@170-174: 'elif' without a matching 'if' at this indentation"]],
  ['x = 1 2', ['syntax-error@176-177: expected end of line']],
  ['return )', ['syntax-error@177-178: expected an expression or end of line']],
  ['x = $', ['syntax-error@174-175: expected an expression']],
  ['x = a!b', ['syntax-error@175-176: expected end of line']],
  ['for x y in z:\n    pass', ["syntax-error@176-177: expected 'in' or ','"]],
  ['with a b:\n    pass', ["syntax-error@177-178: expected ':' after the with header, ',' or 'as'"]],
  ['x = [1,, 2]', ["syntax-error@177-178: expected an expression or ']'"]],
  ['x = {1: 2,, }', ["syntax-error@180-181: expected an expression or '}'"]],
  ['x = (1, 2', ["syntax-error@174-175: '(' is never closed"]],
  [
    'x = a[1:2, ::3]',
    ["unsupported-construct@182-184: a slice step is not supported in a tensor or tile subscript; write 'start:stop' without a step"],
  ],
  ['x = 1__0', ["syntax-error@174-178: '1__0' is not a valid number"]],
  ['x = "a" "b"', []],
  ['x = b"a"', ['unsupported-construct@174-178: bytes literals are not supported inside a @pl.program']],
  ['pass; pass', []],
  ['x = 1;; y = 2', ['syntax-error@176-177: expected a statement or end of line']],
  ['while x: pass\nelse: pass', ["unsupported-construct@192-197: 'else' on a while loop is not supported"]],
  [
    'for (a, [b]) in c:\n    pass',
    [
      'unsupported-construct@186-187: a for loop must iterate over pl.range, pl.parallel, pl.unroll, pl.pipeline, pl.spmd, pl.split_aiv, pl.while_ or range',
    ],
  ],
  ['x = -+~a', ["unsupported-construct@175-176: unary '+' is not supported inside a @pl.program"]],
  ['x = a if b', ["syntax-error@180-180: expected 'else'"]],
  ['nonlocal n', ["unsupported-construct@170-180: 'nonlocal' statements are not supported inside a @pl.program"]],
  ['finally:\n    pass', ["unsupported-construct@170-178: 'finally' clauses are not supported inside a @pl.program"]],
  ['except E:\n    pass', ["unsupported-construct@170-179: 'except' clauses are not supported inside a @pl.program"]],
  ['x = lambda a, b: a', ['unsupported-construct@174-188: lambda is not supported inside a @pl.program']],
  ['x = a not in b', ["unsupported-construct@176-182: the 'not in' operator is not supported inside a @pl.program"]],
  ['x = a is not b', ["unsupported-construct@176-182: the 'is not' operator is not supported inside a @pl.program"]],
  ['    def k(self, *a):', ["unsupported-construct@113-115: '*' parameters are not supported inside a @pl.program"]],
  ['    def k(self, **a):', ["unsupported-construct@113-116: '**' parameters are not supported inside a @pl.program"]],
  ['    def k(self, /, a):', ["unsupported-construct@113-114: '/' parameters are not supported inside a @pl.program"]],
  ['    def k(self, a=1):', ['unsupported-construct@114-116: default parameter values are not supported inside a @pl.program']],
  ['    def k(self, a: int = 1):', ['unsupported-construct@120-123: default parameter values are not supported inside a @pl.program']],
  ['    def k(self) -> :', ['syntax-error@116-117: expected an expression']],
  ['    def k(self, a b):', ["syntax-error@115-116: expected ')', ',' or ':'"]],
  ['    def k(self a):', ["syntax-error@112-113: expected ')', ',' or ':'"]],
  ['    def k(self,, a):', ["syntax-error@112-113: expected ')'"]],
  ['    def k(-self):', ["syntax-error@107-108: expected ')'"]],
  ['    def k(self):  x = 1', ['syntax-error@129-129: unexpected indent']],
];

describe('the DSL parser reads the whole language', () => {
  it('every example module, and every spec module the parser reads without error, round-trips through the printer', () => {
    let read = 0;
    for (const f of [...pyFiles(join(root, 'examples')), ...pyFiles(join(root, 'specs'))]) {
      const text = readFileSync(f, 'utf8');
      if (moduleErrors(parseModuleIsolated(text, 'm.py')).length > 0) continue;
      roundTrips(text);
      read++;
    }
    expect(read).toBeGreaterThan(100);
  });

  it('reads the generated large kernels (every statement unique)', () => {
    for (const text of [commKernelText(300, 'flat', true), commKernelText(200, 'nested', true), orchestrationText(100)]) roundTrips(text);
  });

  test.prop([arbPrograms({ maxDepth: 3, exprDepth: 3, maxStmts: 4 }), arbRespelling], scaled(30))(
    'generated programs, respelled: read without diagnostics, and round-trip',
    (programs, r) => roundTrips(respell(programText(programs), r)),
  );

  it('reports each unsupported construct and syntax error where and as the grammar did', () => {
    for (const [src, expected] of REPORTED) {
      const text = src.startsWith('    def ') ? header(src) : kernel(src);
      const got = (parseModuleIsolated(text, 'm.py').problems ?? []).map(
        (d) => `${d.code}@${d.location?.start}-${d.location?.end}: ${d.message}`,
      );
      expect(got, JSON.stringify(src)).toEqual(expected);
    }
  });
});
