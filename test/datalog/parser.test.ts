import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../src/datalog/index.js';
import { parseFile } from '../../src/datalog/syntax/parser.js';
import { SourceText } from '../../src/report/source.js';
import { checkErrors, errorsOf } from './helpers.js';

const parse = (text: string) => parseFile(new SourceText('t.dl', text));

describe('parser', () => {
  it('reads declarations, directives, facts and rules', () => {
    const f = parse(`
      .type Id <: number
      .decl r(x: Id, s: symbol) // comment
      .input r
      .output a, b
      .printsize a
      /* block
         comment */
      a(1, "x\\"y").
      b(X) :- r(X, _), !c(X), X != 3, N = count : { d(_, "x") }, M = min Y : d(Y, _).
    `);
    expect(f.types).toMatchObject([{ name: 'Id', base: 'number' }]);
    expect(f.decls).toMatchObject([
      {
        name: 'r',
        attrs: [
          { name: 'x', type: 'Id' },
          { name: 's', type: 'symbol' },
        ],
      },
    ]);
    expect(f.io.map((d) => `${d.directive} ${d.rel}`)).toEqual(['input r', 'output a', 'output b', 'printsize a']);
    expect(f.clauses).toHaveLength(2);
    expect(f.clauses[0]!.isFact).toBe(true);
    expect(f.clauses[0]!.head.args).toMatchObject([
      { kind: 'num', value: 1n },
      { kind: 'str', value: 'x"y' },
    ]);
    const body = f.clauses[1]!.body;
    expect(body.map((l) => l.kind)).toEqual(['atom', 'neg', 'cmp', 'cmp', 'cmp']);
    expect(body[3]).toMatchObject({ kind: 'cmp', op: '=', right: { kind: 'agg', op: 'count', target: null } });
    expect(body[4]).toMatchObject({ kind: 'cmp', right: { kind: 'agg', op: 'min', target: { kind: 'var', name: 'Y' } } });
  });

  it('gives arithmetic the usual precedence and folds negative literals', () => {
    const f = parse('r(X) :- s(Y), X = -2 + Y * 3 % 4 - -Y.');
    const rhs = (f.clauses[0]!.body[1] as { right: unknown }).right;
    expect(rhs).toMatchObject({
      kind: 'bin',
      op: '-',
      left: { kind: 'bin', op: '+', left: { kind: 'num', value: -2n }, right: { kind: 'bin', op: '%', left: { kind: 'bin', op: '*' } } },
      right: { kind: 'neg', arg: { kind: 'var', name: 'Y' } },
    });
  });

  it('expands disjunctions into one clause per alternative', () => {
    const f = parse('r(X) :- a(X), (b(X) ; c(X), d(X)) ; e(X).');
    expect(f.clauses.map((c) => c.body.map((l) => (l.kind === 'atom' ? l.atom.rel : '?')).join(','))).toEqual(['a,b', 'a,c,d', 'e']);
  });

  it('reports syntax errors with Ohm rule descriptions and a location', () => {
    expect(errorsOf(() => parse('.decl (x: number)'))).toEqual(['t.dl:1:7 syntax-error: expected a relation name but found `(`']);
    expect(errorsOf(() => parse('r(X) :- a(X)'))).toEqual([
      't.dl:1:13 syntax-error: expected `.`, `;` or `,` but found the end of the file',
    ]);
    expect(errorsOf(() => parse('r(X) :- .'))).toEqual([
      't.dl:1:9 syntax-error: expected a body literal (an atom, a negated atom `!r(...)` or a comparison) but found `.`',
    ]);
    expect(errorsOf(() => parse('r(X) :- a(X), X = 1 2.'))).toEqual([
      't.dl:1:21 syntax-error: expected `.`, `;`, `,` or an arithmetic operator but found `2`',
    ]);
    expect(errorsOf(() => parse('r(1) :- a(X), N = count : { (a(X) ; b(X)) }.'))[0]).toMatch(
      /1:30 syntax-error: a disjunction `;` is not allowed inside an aggregate body/,
    );
    expect(errorsOf(() => parse('r(9223372036854775808).'))).toEqual([
      't.dl:1:3 number-out-of-range: the number 9223372036854775808 does not fit in a 64-bit signed integer',
    ]);
    expect(errorsOf(() => parse('r(-9223372036854775809).'))).toEqual([
      't.dl:1:3 number-out-of-range: the number -9223372036854775809 does not fit in a 64-bit signed integer',
    ]);
    expect(errorsOf(() => parse('r(-9223372036854775808).'))).toEqual([]);
    // Negating the smallest literal again is no literal: it wraps at run time (as Soufflé's 64-bit build computes it).
    expect(errorsOf(() => parse('r(X) :- X = -(-9223372036854775808).'))).toEqual([]);
    expect(errorsOf(() => parse('r(2147483648).'))).toEqual([]);
  });

  it('syntax errors around functors', () => {
    expect(errorsOf(() => parse('a(X) :- b(X), X = concat(X, "a").'))).toEqual(['t.dl:1:19 syntax-error: `concat` is not a functor']);
    expect(errorsOf(() => parse('a(len(X)) :- b(X).'))).toEqual(['t.dl:1:3 syntax-error: `len` is not a functor']);
    expect(errorsOf(() => parse('a(X) :- b(X), X = .'))).toEqual([
      't.dl:1:19 syntax-error: expected a term (a variable, a constant, `_`, an arithmetic expression, a functor or an aggregate) but found `.`',
    ]);
    expect(errorsOf(() => parse('a(X) :- b(X), !.'))).toEqual(['t.dl:1:16 syntax-error: expected a relation name but found `.`']);
    expect(errorsOf(() => parse('a(X) :- b(X), contains(X).'))).toEqual([
      't.dl:1:25 syntax-error: expected `,` or an arithmetic operator but found `)`',
    ]);
  });

  it('resolves #include relative to the including file, once per program', () => {
    const { program } = loadProgram([
      { path: 'dir/main.dl', text: '#include "sub/a.dl"\n#include "sub/b.dl"\n.decl r(x: number)\n.output r\nr(X) :- e(X).' },
      { path: 'dir/sub/a.dl', text: '#include "b.dl"\n' },
      { path: 'dir/sub/b.dl', text: '.decl e(x: number)\n.input e\n' },
    ]);
    expect(program.relations.map((r) => r.name)).toEqual(['r', 'e']);
    expect(program.sources.map((s) => s.path)).toEqual(['dir/main.dl', 'dir/sub/a.dl', 'dir/sub/b.dl']);
  });

  it('reports a missing include at the directive', () => {
    expect(checkErrors('#include "nope.dl"\n')).toEqual(['test.dl:1:1 include-not-found: cannot find the included file nope.dl']);
  });

  it('treats files of one program as sharing declarations', () => {
    const { program, warnings } = loadProgram([
      { path: 'schema.dl', text: '.decl e(x: number)\n.input e\n' },
      { path: 'pass.dl', text: '.decl r(x: number)\n.output r\nr(X) :- e(X).' },
    ]);
    expect(program.relations).toHaveLength(2);
    expect(warnings).toEqual([]);
  });
});
