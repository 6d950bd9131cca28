// Random stratifiable programs for property tests: recursion, negation, aggregates (also followed by
// equalities on their value) and functors
// (cat, to_string, to_number, strlen, substr, min, max, contains, match) over random facts. Levels make
// them stratifiable: negation and aggregates only read lower levels.
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
  // A symbol relation built with functors (level 0), sometimes recursive through them.
  const withSy = r() < 0.35;
  const sy: Rel = { name: 'sy', arity: 2, level: 0, sym: true };
  const symRels = withSy ? [sy] : [];
  const lines: string[] = [];
  for (const x of [...inputs, ...derived, ...symRels]) {
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
  if (withSy) {
    lines.push(`sy(A, cat(S, to_string(A))) :- lab(A, S).`);
    if (r() < 0.5) lines.push(`sy(A, cat(T, "${pick(['x', '1', 'p'])}")) :- sy(A, T), strlen(T) < ${3 + int(3)}.`);
    if (r() < 0.4) lines.push(`sy(B, T) :- sy(A, T), e1(A, B).`);
    if (r() < 0.4) lines.push(`sy(A, substr(T, ${int(5) - 1}, ${int(4) - 1})) :- sy(A, T).`);
    if (r() < 0.3) lines.push(`sy(M, S) :- lab(A, S), M = ${pick(['max', 'min'])}(A, ${int(4)}).`);
    if (r() < 0.3) lines.push(`sy(A, T) :- lab(A, S), T = cat("p", to_string(A - 1)), S != T.`);
  }
  /** A literal over functors using the bound variables, or null. */
  const functorLiteral = (nb: string[], symBound: boolean, bound: Set<string>): string | null => {
    const opts: Array<() => string> = [];
    if (symBound) {
      opts.push(
        () => `${r() < 0.5 ? '' : '!'}contains("${pick(['p', 'q', '1', 'x', ''])}", S)`,
        () => `${r() < 0.5 ? '' : '!'}match("${pick(['p.*', '[pq][0-9]+', '.*1', 'x?', '(', 'q|p1'])}", S)`,
        () => {
          bound.add('L');
          return `L = strlen(S)`;
        },
        () => {
          bound.add('L');
          return `L = to_number(substr(S, ${int(3)}, ${int(3)}))`;
        },
        () => `strlen(S) ${pick(['>', '<=', '='])} ${1 + int(3)}`,
      );
    }
    if (nb.length > 0) {
      opts.push(
        () => {
          bound.add('K');
          return `K = ${pick(['max', 'min'])}(${pick(nb)}, ${r() < 0.5 ? pick(nb) : int(4)})`;
        },
        () => {
          bound.add('K');
          return `K = strlen(cat(to_string(${pick(nb)}), "${pick(['', 'a', 'bc'])}"))`;
        },
        () => `to_number(to_string(${pick(nb)})) = ${pick(nb)}`,
        () => {
          bound.add('K');
          return `K = to_number(cat(to_string(${pick(nb)}), "${pick(['1', '', 'x'])}"))`;
        },
      );
    }
    return opts.length > 0 ? pick(opts)() : null;
  };
  /** A filter on an aggregate's variable `v`: `v = 1`, `2 = v`, `v = W` for a bound W, or a disjunction. */
  const aggEquality = (v: string, nb: readonly string[]): string =>
    pick([
      () => `${v} = ${int(4)}`,
      () => `${int(4)} = ${v}`,
      () => (nb.length > 0 ? `${v} = ${pick(nb)}` : `${v} = ${int(3)}`),
      () => (nb.length > 0 ? `${pick(nb)} = ${v}` : `${int(3)} = ${v}`),
      () => `(${v} = ${int(3)} ; ${v} = ${int(3)})`,
      () => `${v} != ${int(3)}`,
    ])();
  for (const d of derived) {
    const nRules = 1 + int(2);
    for (let k = 0; k < nRules; k++) {
      const body: string[] = [];
      const bound = new Set<string>();
      const candidates = [...inputs, ...symRels, ...derived.filter((x) => x.level <= d.level)];
      const nAtoms = 1 + int(2);
      for (let i = 0; i < nAtoms; i++) {
        const x = i === 0 ? pick(inputs) : pick(candidates);
        const t = atomText(x, null, true);
        body.push(t);
        for (const m of t.matchAll(/\b([ABCS])\b/g)) bound.add(m[1]!);
      }
      const symBound = bound.has('S');
      bound.delete('S');
      const lower = [...inputs, ...symRels.filter((x) => x.level < d.level), ...derived.filter((x) => x.level < d.level)];
      if (r() < 0.4) body.push(`!${atomText(pick(lower), bound, false)}`);
      const nb = [...bound];
      if (r() < 0.3 && nb.length > 0) body.push(`${pick(nb)} ${pick(['<', '<=', '!=', '>', '>=', '='])} ${r() < 0.5 ? pick(nb) : int(4)}`);
      if (r() < 0.2) {
        const f = functorLiteral([...bound], symBound, bound);
        if (f) body.push(f);
      }
      if (r() < 0.1 && withSy && sy.level < d.level) {
        const outer = nb.length > 0 && r() < 0.6 ? pick(nb) : '_';
        body.push(
          pick([
            `N = max strlen(T) : { sy(${outer}, T) }`,
            `N = count : { sy(${outer}, T), contains("p", T) }`,
            `N = min to_number(substr(T, 1, 1)) : sy(${outer}, T)`,
          ]),
        );
        if (r() < 0.3) body.push(aggEquality('N', nb));
        bound.add('N');
      } else if (r() < 0.3) {
        const x = pick(lower.filter((y) => !y.sym));
        const outer = nb.length > 0 && r() < 0.6 ? pick(nb) : '_';
        const inner = x.arity === 2 ? `${x.name}(${outer}, Q)` : `${x.name}(Q)`;
        const op = pick(['count', 'min', 'max', 'sum']);
        const agg = op === 'count' ? `count : { ${inner} }` : `${op} Q : { ${inner} }`;
        if (r() < 0.2) body.push(`${int(3)} = ${agg}`);
        else {
          body.push(`N = ${agg}`);
          // An equality after the aggregate filters its value (it must not re-bind N).
          if (r() < 0.35) body.push(aggEquality('N', nb));
          bound.add('N');
        }
      }
      if (r() < 0.25 && nb.length > 0) {
        body.push(`M = ${pick(nb)} ${pick(['+', '*', '-', '/', '%'])} ${1 + int(3)}`, 'M < 6', 'M > -3');
        bound.add('M');
      }
      const headVars = [...bound];
      const head = Array.from({ length: d.arity }, () => {
        if (headVars.length === 0) return String(int(3));
        const v = pick(headVars);
        return r() < 0.1 ? pick([`max(${v}, 1)`, `strlen(to_string(${v}))`, `min(${v}, 3, 2)`]) : v;
      });
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
  return { text: `${lines.join('\n')}\n`, facts };
}

/** Arbitrary seeds for random cases. */
export const seeds = fc.integer();
