import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../src/datalog/buffer-pool.js';
import { evaluate, loadProgram } from '../../src/datalog/index.js';

describe('BufferPool', () => {
  it('hands a retired buffer out again only after recycle, zero-filled, and keeps at most maxBytes', () => {
    const pool = new BufferPool(1 << 20);
    const a = pool.int32(40_000);
    a.fill(7);
    pool.retire(a);
    const b = pool.int32(40_000);
    expect(b.buffer).not.toBe(a.buffer); // not before recycle
    pool.recycle();
    expect(pool.bytes).toBe(a.buffer.byteLength);
    const c = pool.float64(20_000); // the same power-of-two size class
    expect(c.buffer).toBe(a.buffer);
    expect(c.every((v) => v === 0)).toBe(true);
    expect(pool.bytes).toBe(0);
    // Small arrays and arrays it did not hand out are not kept.
    pool.retire(new Int32Array(100));
    pool.retire(new Int32Array(new ArrayBuffer(1 << 18), 4, 100));
    pool.recycle();
    expect(pool.bytes).toBe(0);
    // Past maxBytes the rest is left to the collector.
    for (let i = 0; i < 5; i++) pool.retire(pool.int32(60_000));
    pool.recycle();
    expect(pool.bytes).toBe(1 << 20);
  });

  it('an evaluation large enough to reuse its arrays derives what a direct computation gives', () => {
    // Relations past the pool's smallest size (64 KB), their indexes freed after use and reused by later strata.
    const text = `.decl e(x: number, y: number)
.input e
.decl a(x: number, y: number)
a(X, Y) :- e(X, Y), Y > 100.
.decl b(y: number, x: number)
b(Y, X) :- a(X, Y).
.decl c(x: number, z: number)
c(X, Z) :- a(X, Y), b(Y, Z), Z < X.
.decl d(x: number)
d(X) :- c(X, _), !a(X, X), !b(X, X).
.decl out(x: number, n: number)
.output out
out(X, N) :- d(X), N = count : { c(X, _) }.
`;
    const { program } = loadProgram([{ path: 'p.dl', text }]);
    const edges: number[][] = [];
    for (let i = 0; i < 12_000; i++) edges.push([i, (i * 7) % 3000]);
    edges.push([150, 150]);
    const db = program.newDatabase();
    for (const e of edges) db.insert('e', e);
    const res = evaluate(program, db);
    expect(res.size('c')).toBeGreaterThan(16_000);
    // The same relations computed directly (the naive evaluator is too slow at this size).
    const a = edges.filter(([, y]) => y! > 100);
    const byY = new Map<number, number[]>();
    for (const [x, y] of a) byY.set(y!, [...(byY.get(y!) ?? []), x!]);
    const c: number[][] = [];
    for (const [x, y] of a) for (const z of byY.get(y!)!) if (z < x!) c.push([x!, z]);
    const loops = new Set(a.filter(([x, y]) => x === y).map(([x]) => x));
    const count = new Map<number, number>();
    for (const [x] of c) count.set(x!, (count.get(x!) ?? 0) + 1);
    const out = [...count].filter(([x]) => !loops.has(x)).sort((p, q) => p[0] - q[0]);
    const sorted = (rows: number[][]): number[][] => rows.sort((p, q) => p[0]! - q[0]! || p[1]! - q[1]!);
    expect(res.tuples('c')).toEqual(sorted(c));
    expect(res.tuples('out')).toEqual(out);
  });
});
