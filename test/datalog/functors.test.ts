import { describe, expect, it } from 'vitest';
import { strlen, substr, toNumber } from '../../src/datalog/check/functors.js';
import { type EvalResult, evaluate, evaluateNaive, formatProof, formatWhyNot, loadProgram, type Value } from '../../src/datalog/index.js';
import { buildPlan } from '../../src/datalog/plan/plan.js';
import { parseFile } from '../../src/datalog/syntax/parser.js';
import { SourceText } from '../../src/report/source.js';
import { checkErrors, prog } from './helpers.js';

/** Evaluates with both evaluators, checks they agree on every relation, returns the fast result. */
function both(text: string, facts: Record<string, Value[][]> = {}): EvalResult {
  const program = prog(text);
  const db = program.newDatabase();
  for (const [rel, rows] of Object.entries(facts)) db.insertMany(rel, rows);
  const fast = evaluate(program, db);
  const slow = evaluateNaive(program, new Map(Object.entries(facts)));
  for (const info of program.relations) expect(fast.tuples(info.name), info.name).toEqual(slow.get(info.name));
  return fast;
}

const NS = '.decl n(x: number)\n.input n\n.decl s(x: symbol)\n.input s\n';
const outS = '.decl o(x: symbol)\n.output o\n';
const outN = '.decl o(x: number)\n.output o\n';

/** The values of `o` after running one rule over n and s. */
function o(decl: string, rule: string, n: (number | bigint)[] = [], s: string[] = []): Value[] {
  return both(`${NS}${decl}${rule}`, { n: n.map((x) => [x]), s: s.map((x) => [x]) })
    .tuples('o')
    .map((t) => t[0]!);
}

describe('functors: parsing', () => {
  const parse = (text: string) => parseFile(new SourceText('t.dl', text));

  it('functor calls, and min/max functors told apart from the aggregates by the `:`', () => {
    const f = parse(
      `a(X) :- X = cat("a", to_string(N + 1), S), Y = max(A, B), Z = max W : { r(W) }, U = min (V) : r(V), T = max max(P, Q) : r(P, Q).`,
    );
    const body = f.clauses[0]!.body as Array<{ right: unknown }>;
    expect(body[0]!.right).toMatchObject({
      kind: 'call',
      fn: 'cat',
      args: [{ kind: 'str' }, { kind: 'call', fn: 'to_string', args: [{ kind: 'bin' }] }, { kind: 'var' }],
    });
    expect(body[1]!.right).toMatchObject({ kind: 'call', fn: 'max', args: [{ name: 'A' }, { name: 'B' }] });
    expect(body[2]!.right).toMatchObject({ kind: 'agg', op: 'max', target: { kind: 'var', name: 'W' } });
    expect(body[3]!.right).toMatchObject({ kind: 'agg', op: 'min', target: { kind: 'var', name: 'V' } });
    expect(body[4]!.right).toMatchObject({ kind: 'agg', op: 'max', target: { kind: 'call', fn: 'max' } });
  });

  it('contains and !contains are body literals', () => {
    const f = parse(`a(S) :- s(S), contains("x", S), !contains(S, "abc"), strlen(S) > 2.`);
    expect(f.clauses[0]!.body).toMatchObject([
      { kind: 'atom' },
      { kind: 'cmp', op: 'contains', left: { kind: 'str', value: 'x' }, right: { kind: 'var', name: 'S' } },
      { kind: 'cmp', op: '!contains', left: { kind: 'var', name: 'S' }, right: { kind: 'str', value: 'abc' } },
      { kind: 'cmp', op: '>', left: { kind: 'call', fn: 'strlen' } },
    ]);
  });

  it('match(pattern, s) holds when the regular expression matches all of s; an invalid pattern matches nothing', () => {
    const f = parse(`a(S) :- s(S), match("k[0-9]+_tid", S), !match(S, "abc").`);
    expect(f.clauses[0]!.body).toMatchObject([
      { kind: 'atom' },
      { kind: 'cmp', op: 'match', left: { kind: 'str', value: 'k[0-9]+_tid' } },
      { kind: 'cmp', op: '!match', right: { kind: 'str', value: 'abc' } },
    ]);
    const facts = '.decl s(x: symbol)\ns("k12_tid").\ns("xk1_tid").\ns("k_tid").\ns("k1_tid\\n").\n';
    const run = (rule: string): string[] => {
      const { program } = loadProgram([{ path: 'm.dl', text: `${facts}.decl o(x: symbol)\n.output o\n${rule}` }]);
      return evaluate(program, program.newDatabase())
        .tuples('o')
        .map((t) => String(t[0]))
        .sort();
    };
    expect(run('o(S) :- s(S), match("k[0-9]+_tid", S).')).toEqual(['k12_tid']);
    expect(run('o(S) :- s(S), !match("k[0-9]*_tid", S).')).toEqual(['k1_tid\n', 'xk1_tid']);
    expect(run('o(S) :- s(S), match("(", S).')).toEqual([]);
    expect(checkErrors('.decl match(x: number)\n')).toEqual([
      'test.dl:1:7 reserved-name: match is a built-in constraint of Soufflé and cannot name a relation',
    ]);
  });

  it('functor names are reserved: not relation names, still fine as prefixes', () => {
    expect(checkErrors('.decl cat(x: number)\n.decl contains(x: number)\n')).toEqual([
      'test.dl:1:7 reserved-name: cat is a built-in functor of Soufflé and cannot name a relation',
      'test.dl:2:7 reserved-name: contains is a built-in constraint of Soufflé and cannot name a relation',
    ]);
    expect(o(`.decl catalog(x: symbol)\n.input catalog\n${outS}`, 'o(X) :- catalog(X), X != cat("a", "b").')).toEqual([]);
  });
});

describe('functors: semantics', () => {
  it('cat with 2 and more arguments, nested with to_string and arithmetic', () => {
    expect(o(outS, 'o(cat(S, "_", S)) :- s(S).', [], ['a', 'bc'])).toEqual(['a_a', 'bc_bc']);
    expect(o(outS, 'o(cat("k", to_string(N + 1), "_tid")) :- n(N).', [0, 41, -5])).toEqual(['k-4_tid', 'k1_tid', 'k42_tid']);
    expect(o(outS, 'o(cat(cat("a", "b"), cat("", "c"))) :- n(_).', [1])).toEqual(['abc']);
  });

  it('to_string keeps 64-bit signed arithmetic', () => {
    expect(o(outS, 'o(to_string(N + 1)) :- n(N).', [2147483647, -1, -2147483648])).toEqual(['-2147483647', '0', '2147483648']);
    expect(o(outS, 'o(to_string(N + 1)) :- n(N).', [9223372036854775807n, 2n ** 53n])).toEqual([
      '-9223372036854775808',
      '9007199254740993',
    ]);
  });

  it('to_number: decimal integers with an optional sign; anything else derives nothing', () => {
    expect(
      o(
        outN,
        'o(to_number(S)) :- s(S).',
        [],
        ['12', '-7', '+5', '007', '2147483648', '-9223372036854775808', '9223372036854775807', '9007199254740993'],
      ),
    ).toEqual([-(2n ** 63n), -7, 5, 7, 12, 2147483648, 9007199254740993n, 2n ** 63n - 1n]);
    expect(
      o(outN, 'o(to_number(S)) :- s(S).', [], ['', 'x', '1x', ' 1', '1.5', '0x10', '9223372036854775808', '-9223372036854775809', '--1']),
    ).toEqual([]);
    expect(o(outN, 'o(N) :- s(S), N = to_number(S).', [], ['3', 'three'])).toEqual([3]);
    expect(o(outN, 'o(1) :- s(S), to_number(S) > 0.', [], ['three'])).toEqual([]);
    // A fact whose functor has no value is not derived.
    expect(both(`${outN}o(to_number("no")).\no(to_number("4")).`).tuples('o')).toEqual([[4]]);
  });

  it('strlen counts UTF-8 bytes, as Soufflé', () => {
    expect(o(outN, 'o(strlen(S)) :- s(S).', [], ['', 'abc', 'é', '€', '😀'])).toEqual([0, 2, 3, 4]);
    expect(strlen('a'.repeat(100))).toBe(100);
  });

  it('substr follows std::string::substr: out-of-range start gives "", negative length the rest', () => {
    const sub = (i: number, n: number) => o(outS, `o(substr(S, ${i}, ${n})) :- s(S).`, [], ['hello']);
    expect(sub(1, 3)).toEqual(['ell']);
    expect(sub(0, 0)).toEqual(['']);
    expect(sub(3, 10)).toEqual(['lo']);
    expect(sub(5, 1)).toEqual(['']);
    expect(sub(6, 1)).toEqual(['']);
    expect(sub(-1, 2)).toEqual(['']);
    expect(sub(2, -1)).toEqual(['llo']);
    expect(substr('aé€b', 1, 2)).toBe('é');
    expect(substr('aé€b', 3, 3)).toBe('€');
    expect(toNumber('-0')).toBe(0);
  });

  it('contains and !contains as constraints', () => {
    expect(o(outS, 'o(S) :- s(S), contains("ab", S).', [], ['xaby', 'ab', 'ba', 'a'])).toEqual(['ab', 'xaby']);
    expect(o(outS, 'o(S) :- s(S), !contains("ab", S).', [], ['xaby', 'ab', 'ba', 'a'])).toEqual(['a', 'ba']);
    expect(o(outS, 'o(S) :- s(S), contains("", S).', [], ['', 'x'])).toEqual(['', 'x']);
    expect(o(outS, 'o(S) :- s(S), s(T), S != T, contains(S, T).', [], ['a', 'ab', 'b', 'c'])).toEqual(['a', 'b']);
  });

  it('min and max with two or more arguments', () => {
    expect(o(outN, 'o(max(N, 3)) :- n(N).', [1, 5, -9])).toEqual([3, 5]);
    expect(o(outN, 'o(min(N, 3, 10 - N)) :- n(N).', [1, 5, 8, -9])).toEqual([-9, 1, 2, 3]);
    expect(o(outN, 'o(M) :- n(N), M = max(N * 2, min(N, 0)).', [-3, 4])).toEqual([-3, 8]);
  });

  it('functors in every position: heads, atom arguments, negations, comparisons, assignments, aggregates', () => {
    const text = `${NS}.decl name(k: number, v: symbol)\n.input name
.decl hit(k: number)\n.output hit
hit(K) :- n(K), name(K, cat("v", to_string(K))).
.decl miss(k: number)\n.output miss
miss(K) :- n(K), !name(K, cat("v", to_string(K))).
.decl long(v: symbol)\n.output long
long(V) :- name(_, V), strlen(V) >= 3.
.decl eq(k: number)\n.output eq
eq(K) :- name(K, V), V = cat("v", to_string(K)).
.decl agg(m: number, c: number, t: symbol)\n.output agg
agg(M, C, to_string(count : { name(_, V), contains("1", V) })) :- M = max strlen(V) : { name(_, V) }, C = sum to_number(substr(V, 1, 5)) : name(_, V).
`;
    const r = both(text, {
      n: [[1], [2], [10]],
      s: [],
      name: [
        [1, 'v1'],
        [2, 'w2'],
        [10, 'v10'],
        [3, 'v3x'],
      ],
    });
    expect(r.tuples('hit')).toEqual([[1], [10]]);
    expect(r.tuples('miss')).toEqual([[2]]);
    expect(r.tuples('long')).toEqual([['v10'], ['v3x']]);
    expect(r.tuples('eq')).toEqual([[1], [10]]);
    // sum over distinct instances: v1 -> 1, w2 -> 2, v10 -> 10 (v3x has no number).
    expect(r.tuples('agg')).toEqual([[3, 13, '2']]);
    // An aggregate nested in functors in the body.
    const n = both(`${NS}${outN}o(N) :- n(N), N = to_number(cat("1", to_string(count : { n(_) }))).`, { n: [[1], [13], [2]], s: [] });
    expect(n.tuples('o')).toEqual([[13]]);
  });

  it('new symbols are interned into the shared symbol table during evaluation', () => {
    const program = prog(`${NS}${outS}o(cat("fresh_", to_string(N))) :- n(N).`);
    const db = program.newDatabase();
    db.insertMany('n', [[7]]);
    expect(db.symbols.lookup('fresh_7')).toBe(-1);
    const r = evaluate(program, db);
    expect(db.symbols.lookup('fresh_7')).toBeGreaterThanOrEqual(0);
    expect(r.contains('o', ['fresh_7'])).toBe(true);
  });

  it('an expression argument whose variables the atom itself (or a later atom) binds', () => {
    const E =
      '.decl e(x: number, y: number)\n.input e\n.decl f(x: number, y: number)\n.input f\n.decl r(x: number, y: number)\n.output r\n';
    const facts = {
      e: [
        [1, 2],
        [2, 2],
        [5, 6],
      ],
      f: [
        [2, 1],
        [6, 5],
        [3, 3],
      ],
    };
    expect(both(`${E}r(X, Y) :- e(X, X + 1), Y = X.`, facts).tuples('r')).toEqual([
      [1, 1],
      [5, 5],
    ]);
    // Each atom needs a variable that only the other binds.
    expect(both(`${E}r(X, Y) :- e(X, Y + 0), f(Y, X * 1).`, facts).tuples('r')).toEqual([
      [1, 2],
      [5, 6],
    ]);
    expect(both(`${E}r(X, Y) :- e(X, Y), f(to_number(to_string(Y)), X).`, facts).tuples('r')).toEqual([
      [1, 2],
      [5, 6],
    ]);
  });

  it('recursion through functors (semi-naive) agrees with the naive evaluator', () => {
    const r = both(`${NS}${outS}o(S) :- s(S).\no(cat(S, "x")) :- o(S), strlen(S) < 4.\no(substr(S, 1, 9)) :- o(S).`, {
      s: [['ab']],
      n: [],
    });
    expect(r.tuples('o').map((t) => t[0])).toEqual(['', 'ab', 'abx', 'abxx', 'b', 'bx', 'bxx', 'bxxx', 'x', 'xx', 'xxx', 'xxxx']);
  });
});

describe('functors: the contract rules shapes', () => {
  const text = `.decl binding(id: number, f: number, name: symbol, line: number, col: number)\n.input binding
.decl barrier(k: number, f: number)\n.input barrier
.decl fresh(k: number, f: number, name: symbol)\n.output fresh
.decl taken(k: number, b: number)\n.output taken
.decl finding(kind: symbol, sev: symbol, at: number, msg: symbol)\n.output finding
fresh(K, F, cat("phase_fence_barrier_", to_string(K), "_tid")) :- barrier(K, F).
taken(K, B) :- barrier(K, F), binding(B, F, Name, _, _), Name = cat("phase_fence_barrier_", to_string(K), "_tid").
finding("contract-violation", "error", B,
    cat("publishing write to ", Name, " can reach the notify at line ", to_string(L), " without a release")) :-
    binding(B, _, Name, L, _), !taken(_, B).`;
  const facts = {
    binding: [
      [1, 0, 'phase_fence_barrier_3_tid', 10, 4],
      [2, 0, 'x', 12, 4],
      [3, 1, 'phase_fence_barrier_3_tid', 20, 4],
    ],
    barrier: [
      [3, 0],
      [4, 1],
    ],
  };

  it('check, run and agree with the naive evaluator', () => {
    const r = both(text, facts);
    expect(r.tuples('fresh')).toEqual([
      [3, 0, 'phase_fence_barrier_3_tid'],
      [4, 1, 'phase_fence_barrier_4_tid'],
    ]);
    expect(r.tuples('taken')).toEqual([[3, 1]]);
    expect(r.tuples('finding').map((t) => t[3])).toEqual([
      'publishing write to x can reach the notify at line 12 without a release',
      'publishing write to phase_fence_barrier_3_tid can reach the notify at line 20 without a release',
    ]);
  });

  it('the name is computed first and looked up through an index (not a scan plus a filter)', () => {
    const program = prog(text);
    const clause = program.clauses.find((c) => c.clause.head.rel === 'taken')!.clause;
    const plan = buildPlan({
      body: clause.body,
      head: clause.head.args,
      relId: (n) => program.relation(n)!.id,
      arity: (r) => program.relations[r]!.kinds.length,
      size: (r) => (program.relations[r]!.name === 'binding' ? 1000 : 10),
      recursive: new Set(),
      delta: -1,
      symbols: program.newDatabase().symbols,
    });
    expect(plan.steps.map((s) => s.op)).toEqual(['scan', 'assign', 'scan']);
    const last = plan.steps[2]!;
    expect(last.op === 'scan' && last.keyCols).toEqual([1, 2]);
  });

  it('explain shows the substitution, why-not the failing constraint', () => {
    const r = both(text, facts);
    expect(formatProof(r.explain('taken', [3, 1])!)).toBe(
      [
        'taken(3, 1)  [rule test.dl:12, height 2]  {K=3, B=1, F=0, Name="phase_fence_barrier_3_tid"}',
        '  barrier(3, 0)  [input fact]',
        '  binding(1, 0, "phase_fence_barrier_3_tid", 10, 4)  [input fact]',
        '  Name = cat("phase_fence_barrier_", to_string(K), "_tid")  holds',
      ].join('\n'),
    );
    const w = r.whyNot('taken', [4, 3]);
    expect(w.map((x) => [x.literal, x.reason])).toEqual([
      ['Name = cat("phase_fence_barrier_", to_string(K), "_tid")', 'the comparison is false for every binding of the literals before it'],
    ]);
    const c = both(`${NS}${outS}o(S) :- s(S), contains("z", S).`, { s: [['abc']], n: [] });
    expect(formatWhyNot('o', ['abc'], c.whyNot('o', ['abc']), false)).toContain(
      'fails at contains("z", S) (7:15): the first symbol never occurs in the second, for every binding of the literals before it',
    );
  });
});
