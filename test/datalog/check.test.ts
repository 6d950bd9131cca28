import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../src/datalog/index.js';
import { formatPosition } from '../../src/report/text.js';
import { checkErrors } from './helpers.js';

const E = '.decl e(x: number, y: number)\n.input e\n';

describe('static checks', () => {
  it('undeclared relation, with a suggestion', () => {
    expect(checkErrors(`${E}.decl path(x: number, y: number)\n.output path\npath(X, Y) :- edgee(X, Y).`)).toEqual([
      'test.dl:5:15 undeclared-relation: the relation edgee is not declared',
    ]);
    expect(checkErrors('.output nothing\n')).toEqual(['test.dl:1:9 undeclared-relation: the relation nothing is not declared']);
  });

  it('arity mismatch in head, body, negation and aggregate', () => {
    expect(
      checkErrors(
        `${E}.decl r(x: number)\n.output r\nr(X, Y) :- e(X, Y).\nr(X) :- e(X).\nr(X) :- e(X, _), !e(X).\nr(N) :- N = count : e(_).`,
      ),
    ).toEqual([
      'test.dl:5:1 arity-mismatch: r has 1 column but is used here with 2',
      'test.dl:6:9 arity-mismatch: e has 2 columns but is used here with 1',
      'test.dl:7:19 arity-mismatch: e has 2 columns but is used here with 1',
      'test.dl:8:21 arity-mismatch: e has 2 columns but is used here with 1',
    ]);
  });

  it('type mismatch through variables, literals, arithmetic and comparisons', () => {
    const S = '.decl s(x: symbol)\n.input s\n.decl n(x: number)\n.input n\n.decl out(x: number)\n.output out\n';
    expect(checkErrors(`${S}out(X) :- s(X).`)).toEqual([
      'test.dl:7:5 type-mismatch: `X` is used as a number here (column 1 (x) of out) but as a symbol at line 7, col 13 (column 1 (x) of s)',
    ]);
    expect(checkErrors(`${S}out(1) :- s(1).`)).toEqual(['test.dl:7:13 type-mismatch: column 1 (x) of s is a symbol but `1` is a number']);
    expect(checkErrors(`${S}out(X) :- n(X), s(Y), X = Y.`)).toEqual([
      'test.dl:7:23 type-mismatch: `X` is a number but `Y` is a symbol, so `=` compares values of different types',
    ]);
    expect(checkErrors(`${S}out(X) :- n(X), s(Y), Z = Y, X = Z.`)).toEqual([
      'test.dl:7:30 type-mismatch: `X` is a number but `Z` is a symbol, so `=` compares values of different types',
    ]);
    expect(checkErrors(`${S}out(X) :- s(Y), X = Y + 1.`)).toEqual([
      'test.dl:7:21 type-mismatch: `Y` is used as a number here (an operand of `+`) but as a symbol at line 7, col 13 (column 1 (x) of s)',
    ]);
    expect(checkErrors(`${S}out(1) :- s(Y), Y < "b".`)).toEqual([
      'test.dl:7:17 type-mismatch: `Y` is used as a number here (an operand of `<`) but as a symbol at line 7, col 13 (column 1 (x) of s)',
      'test.dl:7:21 type-mismatch: an operand of `<` is a number but `"b"` is a symbol',
    ]);
    expect(checkErrors(`${S}out(N) :- N = sum X : { s(X) }.`)).toEqual([
      'test.dl:7:19 type-mismatch: `X` is used as a number here (the value of `sum`) but as a symbol at line 7, col 27 (column 1 (x) of s)',
    ]);
    expect(checkErrors(`.type Name <: symbol\n.decl a(x: Name)\n.input a\n.decl b(x: symbol)\n.output b\nb(X) :- a(X).`)).toEqual([]);
  });

  it('ungrounded variables in the head, negation, comparison, arithmetic and aggregates', () => {
    const R = `${E}.decl r(x: number)\n.output r\n`;
    expect(checkErrors(`${R}r(Y) :- e(X, _).`)).toEqual([
      'test.dl:5:3 ungrounded-variable: variable `Y` in the head is not bound by any positive body atom',
    ]);
    expect(checkErrors(`${R}r(X) :- e(X, _), !e(X, Z).`)).toEqual([
      'test.dl:5:24 ungrounded-variable: variable `Z` in the negation `!e(...)` is not bound by any positive body atom',
    ]);
    expect(checkErrors(`${R}r(X) :- e(X, _), X < Y.`)).toEqual([
      'test.dl:5:22 ungrounded-variable: variable `Y` in this comparison is not bound by any positive body atom',
    ]);
    expect(checkErrors(`${R}r(N) :- e(X, _), N = M + 1.`)).toEqual([
      'test.dl:5:22 ungrounded-variable: variable `M` in this comparison is not bound by any positive body atom',
    ]);
    expect(checkErrors(`${R}r(1) :- e(X + 1, _).`)).toEqual([
      'test.dl:5:11 ungrounded-variable: variable `X` in `e(...)` is not bound by any positive body atom',
    ]);
    expect(checkErrors(`${R}r(N) :- e(_, _), N = sum X : { e(_, Y) }.`)).toEqual([
      'test.dl:5:26 ungrounded-variable: variable `X` in the value of `sum` is not bound by any positive body atom',
    ]);
    expect(checkErrors(`${R}r(_) :- e(_, _).`)).toEqual([
      'test.dl:5:3 ungrounded-variable: `_` cannot be used in the head of a rule or in a fact',
    ]);
    expect(checkErrors(`${R}r(X) :- e(X, _), X != _.`)).toEqual([
      'test.dl:5:23 ungrounded-variable: `_` cannot be used in a comparison or arithmetic',
    ]);
    expect(checkErrors(`${R}r(X).`)).toEqual([
      'test.dl:5:3 ungrounded-variable: variable `X` in this fact is not bound by any positive body atom',
    ]);
    // Bound through equalities, and outer variables of aggregates.
    expect(checkErrors(`${R}r(Z) :- e(X, _), Y = X + 1, Z = Y * 2.`)).toEqual([]);
    expect(checkErrors(`${R}r(N) :- e(X, _), N = count : { e(X, Y), Y > X }.`)).toEqual([]);
  });

  it('functors: argument and result types, arity, grounding', () => {
    const S =
      '.decl s(x: symbol)\n.input s\n.decl n(x: number)\n.input n\n.decl os(x: symbol)\n.output os\n.decl on(x: number)\n.output on\n';
    expect(checkErrors(`${S}os(cat(S, N)) :- s(S), n(N).`)).toEqual([
      'test.dl:9:11 type-mismatch: cat takes symbols but argument 2 (`N`) is a number (column 1 (x) of n at line 9, col 26)',
    ]);
    // The kind of a variable also comes from comparisons made before the functor is checked.
    expect(checkErrors(`${S}os(X) :- n(N), X = to_string(N), Y = cat(X, N), s(Y).`)).toEqual([
      'test.dl:9:45 type-mismatch: cat takes symbols but argument 2 (`N`) is a number (column 1 (x) of n at line 9, col 12)',
    ]);
    expect(checkErrors(`${S}on(N) :- s(S), N = cat(S, "x").`)).toEqual([
      'test.dl:9:16 type-mismatch: `N` is a number but `cat(S, "x")` is a symbol, so `=` compares values of different types',
    ]);
    expect(checkErrors(`${S}on(1) :- s(S), cat(S, "a") < 3.`)).toEqual([
      'test.dl:9:16 type-mismatch: an operand of `<` is a number but `cat(S, "a")` is a symbol',
    ]);
    expect(checkErrors(`${S}on(1) :- n(N), !contains("a", N).`)).toEqual([
      'test.dl:9:31 type-mismatch: contains takes symbols but argument 2 (`N`) is a number (column 1 (x) of n at line 9, col 12)',
    ]);
    expect(checkErrors(`${S}os(N) :- N = max strlen(S) : { s(S) }.`)).toEqual([
      'test.dl:9:10 type-mismatch: `N` is a symbol but `max strlen(S) : { s(S) }` is a number, so `=` compares values of different types',
    ]);
    expect(checkErrors(`${S}os(to_string(1, 2)) :- s(_).\non(strlen()) :- s(_).`)).toEqual([
      'test.dl:9:4 arity-mismatch: to_string takes 1 argument but is given 2',
      'test.dl:10:4 arity-mismatch: strlen takes 1 argument but is given 0',
    ]);
    expect(checkErrors(`${S}os(S) :- s(S), s(cat(S, T)).\nos(S) :- s(S), contains(S, T).\nos(S) :- s(S), s(cat(S, _)).`)).toEqual([
      'test.dl:9:25 ungrounded-variable: variable `T` in `s(...)` is not bound by any positive body atom',
      'test.dl:10:28 ungrounded-variable: variable `T` in `contains(...)` is not bound by any positive body atom',
      'test.dl:11:25 ungrounded-variable: `_` cannot be used in arithmetic or a functor',
    ]);
    // `X = functor(...)` binds X once the arguments are bound; aggregates may sit inside functors.
    expect(
      checkErrors(`${S}os(T) :- s(S), T = cat(S, "x"), s(T).\non(N) :- n(N), N = to_number(cat("1", to_string(count : { s(_) }))).`),
    ).toEqual([]);
    expect(checkErrors(`${S}os(to_string(count : s(_))) :- s(_).\non(min(N, 1, 2)) :- n(N).`)).toEqual([]);
  });

  it('negation or aggregation in a recursive cycle, naming the cycle', () => {
    expect(checkErrors(`${E}.decl a(x: number)\n.decl b(x: number)\n.output a\na(X) :- b(X).\nb(X) :- e(X, _), !a(X).`)).toEqual([
      'test.dl:7:18 unstratifiable: this negation is inside a recursive cycle: a -> b -> !a',
    ]);
    expect(checkErrors(`${E}.decl a(x: number)\n.output a\na(X) :- e(X, _), !a(X).`)).toEqual([
      'test.dl:5:18 unstratifiable: this negation is inside a recursive cycle: a -> !a',
    ]);
    expect(checkErrors(`${E}.decl a(x: number)\n.output a\na(N) :- e(N, _), N = max X : { a(X) }.`)).toEqual([
      'test.dl:5:22 unstratifiable: this aggregate `max` is inside a recursive cycle: a -> max(a)',
    ]);
  });

  it('a rule deriving into an .input relation', () => {
    expect(checkErrors(`${E}e(X, Y) :- e(Y, X).`)).toEqual([
      'test.dl:3:1 derives-input: e is an .input relation and cannot be derived by a rule',
    ]);
  });

  it('types and duplicate declarations', () => {
    expect(checkErrors('.decl r(x: nmber)\n')).toEqual(['test.dl:1:9 unknown-type: unknown type nmber for attribute x']);
    expect(checkErrors('.decl r(x: number)\n.decl r(x: number)\n')).toEqual([
      'test.dl:2:7 duplicate-declaration: the relation r is already declared',
    ]);
  });

  it('warnings: unused relation, output never derived, relation read but never derived', () => {
    const { warnings } = loadProgram([
      {
        path: 'w.dl',
        text: `${E}.decl unused(x: number)\n.decl out(x: number)\n.output out\n.decl ghost(x: number)\n.decl r(x: number)\n.output r\nr(X) :- e(X, _), !ghost(X).\n.decl dead(x: number)\ndead(X) :- e(X, _).`,
      },
    ]);
    expect(warnings.map((w) => `${formatPosition(w.location!)} ${w.severity} ${w.code}`)).toEqual([
      'w.dl:3:7 warning unused-relation',
      'w.dl:4:7 warning underived-output',
      'w.dl:6:7 warning underived-relation',
      'w.dl:10:7 warning unused-relation',
    ]);
  });

  it('accepts the rule shapes the passes use', () => {
    const text = `.decl stmt(id: number, kind: symbol, parent: number, index: number)
.input stmt
.decl call(s: number, c: number)
.input call
.decl call_op(c: number, op: symbol)
.input call_op
.decl followed_by_inval(s: number)
.input followed_by_inval
.decl wait_op(op: symbol)
wait_op("pld.system.wait").
.decl needs_inval(s: number)
.output needs_inval
needs_inval(S) :- stmt(S, "ExprStmt", _, _), call(S, C), call_op(C, Op), wait_op(Op), !followed_by_inval(S).
.decl n(k: number)
.output n
n(N) :- N = count : { stmt(_, "For", _, _) }.`;
    expect(checkErrors(text)).toEqual([]);
  });
});
