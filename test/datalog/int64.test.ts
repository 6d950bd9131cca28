// 64-bit numbers: the engine's encoded arithmetic (int64.ts) against BigInt, and the engine
// against the naive evaluator (BigInt throughout) on random arithmetic programs whose values sit
// near ±2^31, ±2^53 and ±2^63, where 32-bit or double arithmetic would go wrong.

import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { evaluate, evaluateNaive, loadProgram, type Value } from '../../src/datalog/index.js';
import { arith64, INT64_MAX, INT64_MIN, Int64Table, normNum } from '../../src/datalog/syntax/int64.js';

const clamp = (v: bigint): bigint => (v < INT64_MIN ? INT64_MIN : v > INT64_MAX ? INT64_MAX : v);
const EDGES = [0n, 1n, 2n ** 31n, 2n ** 32n, 2n ** 53n, 2n ** 62n, INT64_MAX].flatMap((b) => [b, -b]);

/** 64-bit values, mostly within a few units of a boundary (±2^31, ±2^32, ±2^53, ±2^62, ±2^63). */
const int64 = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  fc.tuple(fc.constantFrom(...EDGES), fc.integer({ min: -3, max: 3 })).map(([b, d]) => clamp(b + BigInt(d))),
  fc.integer({ min: -5, max: 5 }).map(BigInt),
);

describe('Int64Table arithmetic = BigInt arithmetic wrapped to 64 bits', () => {
  fcTest.prop([int64, int64], { numRuns: 2000 })('add, sub, mul, div, mod, neg, ordering, text', (a, b) => {
    const t = new Int64Table();
    const x = t.encode(normNum(a));
    const y = t.encode(normNum(b));
    expect(t.decode(x)).toEqual(normNum(a));
    expect(t.encode(normNum(a)) === x).toBe(true);
    expect(x === y).toBe(a === b);
    const dec = (v: number | null) => (v === null ? null : t.decode(v));
    expect(dec(t.add(x, y))).toEqual(arith64('+', a, b));
    expect(dec(t.sub(x, y))).toEqual(arith64('-', a, b));
    expect(dec(t.mul(x, y))).toEqual(arith64('*', a, b));
    expect(dec(t.div(x, y))).toEqual(arith64('/', a, b));
    expect(dec(t.mod(x, y))).toEqual(arith64('%', a, b));
    expect(t.decode(t.neg(x))).toEqual(arith64('-', 0n, a));
    expect(t.lt(x, y)).toBe(a < b);
    expect(t.le(x, y)).toBe(a <= b);
    expect(t.cmp(x, y)).toBe(a < b ? -1 : a > b ? 1 : 0);
    expect(t.str(x)).toBe(String(a));
    expect(t.parse(String(a))).toBe(x);
    // No negative zero ever reaches storage (it would print and hash like 0, but keep it canonical).
    for (const v of [t.mul(x, y), t.div(x, y), t.mod(x, y), t.neg(x)]) if (v !== null) expect(Object.is(v, -0)).toBe(false);
  });
});

/** A random arithmetic expression over X and Y (depth-bounded) as rule text. */
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('X', 'Y'),
    int64.map((v) => (v < 0n ? `(${v})` : String(v))),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%'), tie('e')).map(([l, op, r]) => `(${l} ${op} ${r})`),
    tie('e').map((a) => `-(${a})`),
    fc.tuple(fc.constantFrom('min', 'max'), tie('e'), tie('e')).map(([f, l, r]) => `${f}(${l}, ${r})`),
  ),
})).e;

describe('engine = naive evaluator on 64-bit arithmetic', () => {
  fcTest.prop([fc.uniqueArray(int64, { minLength: 1, maxLength: 6 }), expr, expr, fc.constantFrom('<', '<=', '>', '>=', '=', '!='), expr], {
    numRuns: 150,
  })('wrapping arithmetic, exact comparisons, ordering, aggregates, to_string/to_number', (values, e1, e2, cmp, e3) => {
    const text = `.decl n(x: number)
.input n
.decl v(x: number, y: number, z: number)
.output v
v(X, Y, ${e1}) :- n(X), n(Y).
.decl c(x: number, y: number)
.output c
c(X, Y) :- n(X), n(Y), ${e2} ${cmp} ${e3}.
.decl s(x: number, y: number)
.output s
s(X, Y) :- n(X), n(Y), X < Y.
.decl agg(a: number, b: number, c: number, d: number)
.output agg
agg(A, B, C, D) :- A = sum Z : v(_, _, Z), B = min Z : v(_, _, Z), C = max Z : v(_, _, Z), D = count : v(_, _, _).
.decl txt(z: number, t: symbol, back: number)
.output txt
txt(Z, T, to_number(T)) :- v(_, _, Z), T = to_string(Z).
`;
    const { program } = loadProgram([{ path: 'int64.dl', text }]);
    const rows: Value[][] = values.map((v) => [normNum(v)]);
    const db = program.newDatabase();
    db.insertMany('n', rows);
    const fast = evaluate(program, db);
    const slow = evaluateNaive(program, new Map([['n', rows]]));
    for (const info of program.relations) expect(fast.tuples(info.name), `${info.name} in\n${text}`).toEqual(slow.get(info.name));
    // Ordering is exact: s holds every pair of distinct values, both orders agree with BigInt.
    expect(fast.tuples('s').length).toBe((values.length * (values.length - 1)) / 2);
    const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(normNum);
    expect(fast.tuples('n').map((t) => t[0])).toEqual(sorted);
  });
});
