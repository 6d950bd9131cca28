// Random stratifiable programs for property tests: recursion, negation and aggregates over
// random facts. Levels make them stratifiable: negation and aggregates only read lower levels.
import fc from 'fast-check';
import type { Value } from '../../src/datalog/index.js';

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomCase {
  text: string;
  facts: Map<string, Value[][]>;
}

interface Rel {
  name: string;
  arity: number;
  level: number;
  sym: boolean;
}

/** Builds a random program and facts from a seed. */
export function randomCase(seed: number): RandomCase {
  const r = rng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const inputs: Rel[] = [
    { name: 'e1', arity: 2, level: -1, sym: false },
    { name: 'e2', arity: 2, level: -1, sym: false },
    { name: 'u', arity: 1, level: -1, sym: false },
    { name: 'lab', arity: 2, level: -1, sym: true },
  ];
  const derived: Rel[] = [];
  const nDerived = 2 + int(4);
  for (let i = 0; i < nDerived; i++) derived.push({ name: `d${i}`, arity: 1 + int(2), level: int(3), sym: false });
  const lines: string[] = [];
  for (const x of [...inputs, ...derived]) {
    const cols = Array.from({ length: x.arity }, (_, c) => `c${c}: ${x.sym && c === 1 ? 'symbol' : 'number'}`);
    lines.push(`.decl ${x.name}(${cols.join(', ')})`);
    lines.push(x.level < 0 ? `.input ${x.name}` : `.output ${x.name}`);
  }
  const numVars = ['A', 'B', 'C'];
  const atomText = (x: Rel, bound: Set<string> | null, allowNew: boolean): string => {
    const args: string[] = [];
    for (let c = 0; c < x.arity; c++) {
      if (x.sym && c === 1) {
        args.push(pick(allowNew ? ['_', '"p"', '"q"', 'S'] : ['_', '"p"', '"q"']));
        continue;
      }
      const k = int(10);
      if (k < 6) {
        const v = pick(numVars);
        if (allowNew || bound?.has(v)) args.push(v);
        else args.push('_');
      } else if (k < 8) args.push('_');
      else args.push(String(int(4)));
    }
    return `${x.name}(${args.join(', ')})`;
  };
  for (const d of derived) {
    const nRules = 1 + int(2);
    for (let k = 0; k < nRules; k++) {
      const body: string[] = [];
      const bound = new Set<string>();
      const candidates = [...inputs, ...derived.filter((x) => x.level <= d.level)];
      const nAtoms = 1 + int(2);
      for (let i = 0; i < nAtoms; i++) {
        const x = i === 0 ? pick(inputs) : pick(candidates);
        const t = atomText(x, null, true);
        body.push(t);
        for (const m of t.matchAll(/\b([ABCS])\b/g)) bound.add(m[1]!);
      }
      bound.delete('S');
      const lower = [...inputs, ...derived.filter((x) => x.level < d.level)];
      if (r() < 0.4) body.push(`!${atomText(pick(lower), bound, false)}`);
      const nb = [...bound];
      if (r() < 0.3 && nb.length > 0) body.push(`${pick(nb)} ${pick(['<', '<=', '!=', '>', '>=', '='])} ${r() < 0.5 ? pick(nb) : int(4)}`);
      if (r() < 0.3) {
        const x = pick(lower.filter((y) => !y.sym));
        const outer = nb.length > 0 && r() < 0.6 ? pick(nb) : '_';
        const inner = x.arity === 2 ? `${x.name}(${outer}, Q)` : `${x.name}(Q)`;
        const op = pick(['count', 'min', 'max', 'sum']);
        body.push(op === 'count' ? `N = count : { ${inner} }` : `N = ${op} Q : { ${inner} }`);
        bound.add('N');
      }
      if (r() < 0.25 && nb.length > 0) {
        body.push(`M = ${pick(nb)} ${pick(['+', '*', '-', '/', '%'])} ${1 + int(3)}`, 'M < 6', 'M > -3');
        bound.add('M');
      }
      const headVars = [...bound];
      const head = Array.from({ length: d.arity }, () => (headVars.length > 0 ? pick(headVars) : String(int(3))));
      lines.push(`${d.name}(${head.join(', ')}) :- ${body.join(', ')}.`);
    }
  }
  const facts = new Map<string, Value[][]>();
  for (const x of inputs) {
    const rows: Value[][] = [];
    const n = 3 + int(10);
    for (let i = 0; i < n; i++) rows.push(x.sym ? [int(5), pick(['p', 'q', 'r'])] : Array.from({ length: x.arity }, () => int(5)));
    facts.set(x.name, rows);
  }
  return { text: lines.join('\n') + '\n', facts };
}

/** Arbitrary seeds for random cases. */
export const seeds = fc.integer();
