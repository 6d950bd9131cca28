import { describe, expect, it } from 'vitest';
import { evaluate, loadProgram } from '../../src/datalog/index.js';
import { errorsOf, prog, run } from './helpers.js';

const TC = `.decl edge(x: number, y: number)
.input edge
.decl path(x: number, y: number)
.output path
path(X, Y) :- edge(X, Y).
path(X, Z) :- path(X, Y), edge(Y, Z).
`;

describe('evaluation', () => {
  it('transitive closure with a cycle', () => {
    const r = run(TC, {
      edge: [
        [1, 2],
        [2, 3],
        [3, 1],
        [3, 4],
      ],
    });
    expect(r.size('path')).toBe(12);
    expect(r.contains('path', [4, 1])).toBe(false);
    expect(r.contains('path', [2, 2])).toBe(true);
  });

  it('non-linear recursion and mutual recursion', () => {
    const r = run(
      `.decl e(x: number, y: number)\n.input e\n.decl p(x: number, y: number)\n.decl odd(x: number, y: number)\n.decl even(x: number, y: number)\n.output p, odd, even
p(X, Y) :- e(X, Y).
p(X, Z) :- p(X, Y), p(Y, Z).
odd(X, Y) :- e(X, Y).
odd(X, Z) :- even(X, Y), e(Y, Z).
even(X, Z) :- odd(X, Y), e(Y, Z).`,
      {
        e: [
          [1, 2],
          [2, 3],
          [3, 4],
          [4, 5],
        ],
      },
    );
    expect(r.size('p')).toBe(10);
    expect(r.tuples('odd')).toEqual([
      [1, 2],
      [1, 4],
      [2, 3],
      [2, 5],
      [3, 4],
      [4, 5],
    ]);
    expect(r.tuples('even')).toEqual([
      [1, 3],
      [1, 5],
      [2, 4],
      [3, 5],
    ]);
  });

  it('linear and non-linear transitive closure agree on a larger random graph (shared indexes)', () => {
    const edges: number[][] = [];
    for (let i = 0; i < 150; i++) edges.push([i, (i * 7 + 3) % 150], [i, (i * 13 + 5) % 160]);
    const linear = run(TC, { edge: edges });
    const nonLinear = run(
      `.decl edge(x: number, y: number)\n.input edge\n.decl path(x: number, y: number)\n.output path\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), path(Y, Z).`,
      { edge: edges },
    );
    expect(nonLinear.size('path')).toBeGreaterThan(10_000);
    expect(nonLinear.tuples('path')).toEqual(linear.tuples('path'));
  });

  it('negation over a lower stratum, with wildcards', () => {
    const r = run(
      `${TC}.decl node(x: number)\n.input node\n.decl unreachable(x: number)\n.output unreachable
.decl sink(x: number)\n.output sink
unreachable(Y) :- node(Y), !path(1, Y).
sink(X) :- node(X), !edge(X, _).`,
      {
        edge: [
          [1, 2],
          [2, 3],
          [4, 1],
        ],
        node: [[1], [2], [3], [4]],
      },
    );
    expect(r.tuples('unreachable')).toEqual([[1], [4]]);
    expect(r.tuples('sink')).toEqual([[3]]);
  });

  it('every aggregate, with outer variables, empty groups and symbols', () => {
    const r = run(
      `.decl emp(n: symbol, d: symbol, s: number)\n.input emp\n.decl dept(d: symbol)\n.input dept
.decl c(d: symbol, n: number)\n.decl lo(d: symbol, n: number)\n.decl hi(d: symbol, n: number)\n.decl total(d: symbol, n: number)\n.decl all(n: number)
.output c, lo, hi, total, all
c(D, N) :- dept(D), N = count : { emp(_, D, _) }.
lo(D, N) :- dept(D), N = min S : { emp(_, D, S) }.
hi(D, N) :- dept(D), N = max S : emp(_, D, S).
total(D, N) :- dept(D), N = sum S : { emp(_, D, S) }.
all(N + 1) :- N = count : emp(_, _, _).`,
      {
        emp: [
          ['a', 'x', 5],
          ['b', 'x', -3],
          ['c', 'y', 7],
        ],
        dept: [['x'], ['y'], ['z']],
      },
    );
    expect(r.tuples('c')).toEqual([
      ['x', 2],
      ['y', 1],
      ['z', 0],
    ]);
    expect(r.tuples('lo')).toEqual([
      ['x', -3],
      ['y', 7],
    ]);
    expect(r.tuples('hi')).toEqual([
      ['x', 5],
      ['y', 7],
    ]);
    expect(r.tuples('total')).toEqual([
      ['x', 2],
      ['y', 7],
      ['z', 0],
    ]);
    expect(r.tuples('all')).toEqual([[4]]);
  });

  it('an equality on an aggregate value filters it, never re-binds it (also in proofs)', () => {
    const text = `.decl g(k: number)\n.decl v(x: number, k: number)\n.decl p(n: number)
.decl q(k: number)\n.decl r(k: number, m: number)\n.decl s(k: number, m: number)\n.decl t(k: number, m: number)\n.decl u(k: number)
.output q, r, s, t, u
g(1). g(2). v(5, 2). p(1).
q(K) :- g(K), 1 = count : { v(_, K) }.
r(K, M) :- g(K), M = max X : { v(X, K) }, M = 7.
s(K, M) :- g(K), W = 7, M = max X : { v(X, K) }, M = W.
t(K, M) :- g(K), M = count : { v(_, K) }, (M = 0 ; M = 2).
u(K) :- g(K), p(count : { v(_, K) }).`;
    const r = run(text);
    expect(r.tuples('q')).toEqual([[2]]);
    expect(r.tuples('r')).toEqual([]);
    expect(r.tuples('s')).toEqual([]);
    expect(r.tuples('t')).toEqual([[1, 0]]);
    expect(r.tuples('u')).toEqual([[2]]);
    expect(r.explain('q', [1])).toBeNull();
    expect(r.explain('q', [2])).not.toBeNull();
    expect(r.explain('r', [2, 7])).toBeNull();
  });

  it('a fact with an aggregate argument is a rule (it depends on what it counts)', () => {
    const r = run('.decl b(x: number)\nb(1). b(2).\n.decl a(x: number)\n.output a\na(count : b(_)).\na(1 + max X : b(X)).\n');
    expect(r.tuples('a')).toEqual([[2], [3]]);
  });

  it('a count over a join counts distinct instances, local variables are scoped', () => {
    const r = run(
      `.decl a(x: number, y: number)\n.input a\n.decl n(x: number, k: number)\n.output n
n(X, K) :- a(X, _), K = count : { a(X, Y), a(Y, _) }.`,
      {
        a: [
          [1, 2],
          [2, 3],
          [2, 4],
          [3, 1],
        ],
      },
    );
    expect(r.tuples('n')).toEqual([
      [1, 2],
      [2, 1],
      [3, 1],
    ]);
  });

  it('64-bit arithmetic, C division and remainder, division by zero derives nothing', () => {
    const r = run(
      `.decl n(x: number)\n.input n\n.decl r(x: number, a: number, b: number, c: number)\n.output r\n.decl z(x: number)\n.output z
r(X, X * 65536 * 65536 + 1, X / -2, X % 3) :- n(X).
z(X) :- n(X), X / (X - X) = 1.`,
      { n: [[7], [-7], [2147483647]] },
    );
    expect(r.tuples('r')).toEqual([
      [-7, -30064771071, 3, -1],
      [7, 30064771073, -3, 1],
      [2147483647, 9223372032559808513n, -1073741823, 1],
    ]);
    expect(r.tuples('z')).toEqual([]);
  });

  it('64-bit arithmetic wraps at ±2^63 and orders exactly beyond 2^53', () => {
    const max = 9223372036854775807n;
    const r = run(
      `.decl n(x: number)\n.input n\n.decl w(x: number, a: number, b: number, c: number, d: number)\n.output w
w(X, X + 1, X * 2, -X - 1, X / -1) :- n(X).
.decl lt(x: number, y: number)\n.output lt
lt(X, Y) :- n(X), n(Y), X < Y.
.decl mx(x: number)\n.output mx
mx(M) :- M = max X : n(X).
.decl s(x: number)\n.output s
s(S) :- S = sum X : n(X).`,
      { n: [[max], [2n ** 53n], [2n ** 53n + 1n], [-(2n ** 63n)]] },
    );
    expect(r.tuples('w')).toEqual([
      [-(2n ** 63n), -(2n ** 63n) + 1n, 0, max, -(2n ** 63n)],
      [2n ** 53n, 2n ** 53n + 1n, 2n ** 54n, -(2n ** 53n) - 1n, -(2n ** 53n)],
      [2n ** 53n + 1n, 2n ** 53n + 2n, 2n ** 54n + 2n, -(2n ** 53n) - 2n, -(2n ** 53n) - 1n],
      [max, -(2n ** 63n), -2, -(2n ** 63n), -max],
    ]);
    expect(r.tuples('lt').length).toBe(6);
    expect(r.has('lt') && r.contains('lt', [2n ** 53n, 2n ** 53n + 1n])).toBe(true);
    expect(r.contains('lt', [2n ** 53n + 1n, 2n ** 53n])).toBe(false);
    expect(r.tuples('mx')).toEqual([[max]]);
    // max + 2^53 + 2^53 + 1 - 2^63 = 2^54, no wrap past the end.
    expect(r.tuples('s')).toEqual([[2n ** 54n]]);
  });

  it('a recursive relation grows past 32 bits mid-evaluation (its storage widens) and stays exact', () => {
    const r = run(`.decl p(x: number)\n.output p\np(1).\np(Y) :- p(X), X < 4611686018427387904, Y = X * 2.
.decl q(x: number, y: number)\n.output q\nq(X, Y) :- p(X), p(Y), Y = X * 2, X > 1073741824.
.decl big(x: number)\n.output big\nbig(X) :- p(X), X > 9007199254740992.`);
    expect(r.tuples('p')).toEqual(Array.from({ length: 63 }, (_, i) => [i <= 52 ? 2 ** i : 2n ** BigInt(i)]));
    expect(r.tuples('q').length).toBe(31);
    expect(r.tuples('big')).toEqual(Array.from({ length: 9 }, (_, i) => [2n ** BigInt(i + 54)]));
    expect(r.contains('p', [2n ** 62n])).toBe(true);
    expect(r.contains('p', [2n ** 61n + 1n])).toBe(false);
    expect(r.explain('p', [2n ** 62n])?.height).toBe(62);
  });

  it('facts in rule files, constants and repeated variables', () => {
    const r = run(
      `.decl e(x: symbol, y: symbol)\ne("a", "a").\ne("a", "b").\ne("b", "b").\n.decl loop(x: symbol)\n.output loop\nloop(X) :- e(X, X).\n.decl fromA(y: symbol)\n.output fromA\nfromA(Y) :- e("a", Y).`,
    );
    expect(r.tuples('loop')).toEqual([['a'], ['b']]);
    expect(r.tuples('fromA')).toEqual([['a'], ['b']]);
  });

  it('nullary relations', () => {
    const r = run(`.decl e(x: number)\n.input e\n.decl any()\n.output any\nany() :- e(_).\n.decl none()\n.output none\nnone() :- !any().`, {
      e: [[1]],
    });
    expect(r.tuples('any')).toEqual([[]]);
    expect(r.tuples('none')).toEqual([]);
  });

  it('a 100k-long chain does not overflow the stack (evaluation and proof)', () => {
    const program = prog(
      `.decl e(x: number, y: number)\n.input e\n.decl reach(x: number)\n.output reach\nreach(0).\nreach(Y) :- reach(X), e(X, Y).`,
    );
    const db = program.newDatabase();
    for (let i = 0; i < 100_000; i++) db.insert('e', [i, i + 1]);
    const r = evaluate(program, db);
    expect(r.size('reach')).toBe(100_001);
    const proof = r.explain('reach', [100_000])!;
    let depth = 0;
    for (let p = proof; p.kind === 'rule'; p = (p.premises[0] as { proof: typeof p }).proof) depth++;
    expect(depth).toBe(100_000);
  });

  it('does not modify the database and can evaluate it twice', () => {
    const program = prog(TC);
    const db = program.newDatabase();
    db.insertMany('edge', [
      [1, 2],
      [2, 3],
    ]);
    expect(evaluate(program, db).size('path')).toBe(3);
    expect(db.size('edge')).toBe(2);
    expect(evaluate(program, db).size('path')).toBe(3);
  });

  it('rejects facts of the wrong shape with a diagnostic', () => {
    const db = prog(TC).newDatabase();
    expect(errorsOf(() => db.insert('edge', [1]))).toEqual([' bad-fact: edge has 2 columns but the tuple (1) has 1']);
    expect(errorsOf(() => db.insert('edge', [1, 'x']))).toEqual([' bad-fact: column 2 (y) of edge is a number but got "x"']);
    expect(errorsOf(() => db.insert('edge', [1, 2 ** 63]))).toEqual([
      ' bad-fact: column 2 (y) of edge is a number but got 9223372036854776000',
    ]);
    expect(errorsOf(() => db.insert('edge', [1, -(2n ** 63n) - 1n]))).toEqual([
      ' bad-fact: column 2 (y) of edge is a number but got -9223372036854775809',
    ]);
    expect(errorsOf(() => db.insert('edge', [1, 1.5]))).toEqual([' bad-fact: column 2 (y) of edge is a number but got 1.5']);
    expect(errorsOf(() => db.insert('edge', [1, 2 ** 31]))).toEqual([]);
    expect(errorsOf(() => db.insert('nope', [1]))).toEqual([' bad-fact: the relation nope is not declared by the rule program']);
  });

  it('loads rule files from several sources as one program', () => {
    const { program } = loadProgram([
      { path: 'a.dl', text: '.decl e(x: number)\n.input e' },
      { path: 'b.dl', text: '.decl r(x: number)\n.output r\nr(X) :- e(X).' },
    ]);
    const db = program.newDatabase();
    db.insert('e', [3]);
    expect(evaluate(program, db).tuples('r')).toEqual([[3]]);
  });
});
