// Dependency graph of relations, its strongly connected components (iterative Tarjan) in
// evaluation order, and the unstratifiable cycles (negation or aggregation inside a component).
import { type Diagnostic, errorAt, type Location } from '../../report/diagnostic.js';
import { type Clause, type Literal, operands, type Term } from '../syntax/ast.js';
import { literalTerms } from './ground.js';

export interface DepEdge {
  from: number;
  to: number;
  /** 'pos' for a positive atom, 'neg' for a negation, or the aggregate operator. */
  how: 'pos' | 'neg' | 'count' | 'min' | 'max' | 'sum';
  loc: Location;
}

/** Every dependency edge head → body relation of the clauses (ids from `idOf`). */
export function dependencyEdges(clauses: readonly { clause: Clause; head: number }[], idOf: (rel: string) => number): DepEdge[] {
  const edges: DepEdge[] = [];
  for (const { clause, head } of clauses) {
    if (clause.isFact && clause.body.length === 0) continue; // (constant arguments: reads no relation)
    const fromTerm = (t: Term, agg: DepEdge['how'] | null): void => {
      if (t.kind === 'agg') {
        if (t.target) fromTerm(t.target, t.op);
        for (const l of t.body) fromLit(l, t.op, t.loc);
      } else for (const x of operands(t)) fromTerm(x, agg);
    };
    const fromLit = (l: Literal, agg: DepEdge['how'] | null, aggLoc: Location | null): void => {
      if (l.kind !== 'cmp') {
        const how: DepEdge['how'] = l.kind === 'neg' ? 'neg' : (agg ?? 'pos');
        edges.push({ from: head, to: idOf(l.atom.rel), how, loc: how === 'neg' || !aggLoc ? l.loc : aggLoc });
      }
      for (const t of literalTerms(l)) fromTerm(t, agg);
    };
    for (const t of clause.head.args) fromTerm(t, null);
    for (const l of clause.body) fromLit(l, null, null);
  }
  return edges;
}

/** Strongly connected components, each listed after every component it depends on. */
export function components(n: number, edges: readonly DepEdge[]): number[][] {
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const e of edges) adj[e.from]!.push(e.to);
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: number[][] = [];
  let counter = 0;
  const work: Array<[number, number]> = [];
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    work.push([s, 0]);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const v = top[0];
      if (top[1] === 0 && index[v] === -1) {
        index[v] = low[v] = counter++;
        stack.push(v);
        onStack[v] = 1;
      }
      const succ = adj[v]!;
      if (top[1] < succ.length) {
        const w = succ[top[1]++]!;
        if (index[w] === -1) work.push([w, 0]);
        else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const p = work[work.length - 1]![0];
        low[p] = Math.min(low[p]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(w);
        } while (w !== v);
        out.push(comp.sort((a, b) => a - b));
      }
    }
  }
  return out;
}

/** Shortest path of relation ids from `src` to `dst` using edges inside `members`. */
function pathWithin(src: number, dst: number, members: ReadonlySet<number>, edges: readonly DepEdge[]): DepEdge[] {
  const prev = new Map<number, DepEdge>();
  const seen = new Set([src]);
  const queue = [src];
  while (queue.length > 0) {
    const v = queue.shift()!;
    if (v === dst) break;
    for (const e of edges) {
      if (e.from !== v || !members.has(e.to) || seen.has(e.to)) continue;
      seen.add(e.to);
      prev.set(e.to, e);
      queue.push(e.to);
    }
  }
  const path: DepEdge[] = [];
  let cur = dst;
  while (cur !== src) {
    const e = prev.get(cur)!;
    path.unshift(e);
    cur = e.from;
  }
  return path;
}

/** One unstratifiable error per negation/aggregate edge inside a component, naming the cycle. */
export function stratificationErrors(comps: readonly number[][], edges: readonly DepEdge[], names: readonly string[]): Diagnostic[] {
  const compOf = new Int32Array(names.length);
  comps.forEach((c, i) => c.forEach((r) => (compOf[r] = i)));
  const errors: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of edges) {
    if (e.how === 'pos' || compOf[e.from] !== compOf[e.to]) continue;
    const key = `${e.loc.source.path}:${e.loc.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const members = new Set(comps[compOf[e.from]!]!);
    const back = e.from === e.to ? [] : pathWithin(e.to, e.from, members, edges);
    const mark = (how: DepEdge['how'], name: string) => (how === 'neg' ? `!${name}` : how === 'pos' ? name : `${how}(${name})`);
    const parts = [names[e.to]!];
    for (const b of back) parts.push(mark(b.how, names[b.to]!));
    parts.push(mark(e.how, names[e.to]!));
    const what = e.how === 'neg' ? 'negation' : `aggregate \`${e.how}\``;
    errors.push(
      errorAt(e.loc.source, e.loc.start, e.loc.end, 'unstratifiable', `this ${what} is inside a recursive cycle: ${parts.join(' -> ')}`, {
        fix: `a relation cannot depend on the ${e.how === 'neg' ? 'negation' : 'aggregate'} of itself; break the cycle, e.g. by computing ${names[e.to]} completely in a separate relation first.`,
      }),
    );
  }
  return errors;
}
