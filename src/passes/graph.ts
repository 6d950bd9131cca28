import { calleeText } from '../ir/print.js';
import type { Analysis } from './analyze.js';

/** Quotes a DOT identifier or label. */
function q(s: string): string {
  return JSON.stringify(s);
}

/**
 * The task-dependency fan-out of each manual scope as Graphviz DOT, read from the rule
 * relations `graph_consumer`, `graph_array_size`, `graph_consumer_runs` and `graph_barrier` that
 * the audit rules of a contract declaring `views = ["graph"]` derive: arrays (producers) →
 * consumers, or with `after`, arrays → barrier → the consumers it covers (`pass` names the
 * contract in the title).
 */
export function fanoutDot(a: Analysis, after: boolean, pass: string): string {
  const src = a.module.source;
  const r = a.result;
  const line = (id: number): number => {
    const e = a.table.get(id);
    return e && 'start' in e ? src.lineOf(e.start) : 0;
  };
  const text = (id: number): string => {
    const e = a.table.get(id);
    if (!e || !('start' in e)) return '';
    const t = src.text.slice(e.start, e.end).replace(/\s+/g, ' ');
    if (t.length <= 48) return t;
    // Cut at a token boundary (after a space or comma), never inside a name.
    const head = t.slice(0, 46);
    const cut = Math.max(head.lastIndexOf(' '), head.lastIndexOf(','));
    return `${(cut > 16 ? head.slice(0, cut + 1) : head).trimEnd()} ...`;
  };
  const sizes = new Map(r.tuples('graph_array_size').map(([b, n]) => [b as number, n as number]));
  const runs = new Map(r.tuples('graph_consumer_runs').map(([x, m]) => [x as number, m as number]));
  const barrierOf = new Map(r.tuples('graph_barrier').map(([x, n]) => [x as number, n as string]));
  // A barrier's label names the op of the call the rules insert to bind it.
  const opOf = new Map(
    (r.has('insert_call') ? r.tuples('insert_call') : []).map((t) => [
      t[4] as string,
      calleeText({ kind: 'op', name: t[3] as string, known: true }),
    ]),
  );
  const byScope = new Map<number, Array<{ x: number; b: number; name: string }>>();
  for (const [sc, x, b, name] of r.tuples('graph_consumer')) {
    const list = byScope.get(sc as number) ?? [];
    list.push({ x: x as number, b: b as number, name: name as string });
    byScope.set(sc as number, list);
  }
  const out = [
    `digraph ${q(`${src.path} task dependencies${after ? ` (after ${pass})` : ''}`)} {`,
    '  rankdir=LR;',
    '  node [fontname="monospace"];',
  ];
  let edgesTotal = 0;
  for (const [sc, consumers] of [...byScope].sort((x, y) => x[0] - y[0])) {
    out.push(`  subgraph ${q(`cluster_${sc}`)} {`, `    label=${q(`manual scope at line ${line(sc)}`)};`);
    const arrays = new Map<number, string>();
    for (const c of consumers) arrays.set(c.b, c.name);
    for (const [b, name] of arrays) {
      const n = sizes.get(b);
      out.push(`    ${q(`a${b}`)} [shape=box3d, label=${q(`${name}[${n ?? '?'}]  (producers)`)}];`);
    }
    const barriers = new Set<string>();
    const drawn = new Set<number>();
    for (const c of consumers.sort((x, y) => x.x - y.x || x.b - y.b)) {
      const m = runs.get(c.x) ?? 1;
      if (!drawn.has(c.x)) out.push(`    ${q(`c${c.x}`)} [shape=box, label=${q(`line ${line(c.x)}: ${text(c.x)}\nruns ${m}×`)}];`);
      drawn.add(c.x);
      const n = sizes.get(c.b);
      const barrier = after ? barrierOf.get(c.x) : undefined;
      if (barrier) {
        if (!barriers.has(barrier)) {
          barriers.add(barrier);
          out.push(`    ${q(barrier)} [shape=diamond, label=${q(`${barrier}\n${opOf.get(barrier) ?? '(barrier)'}`)}];`);
          out.push(`    ${q(`a${c.b}`)} -> ${q(barrier)} [label=${q(`${n ?? '?'} edges`)}];`);
          edgesTotal += n ?? 0;
        }
        out.push(`    ${q(barrier)} -> ${q(`c${c.x}`)} [label=${q(`${m} edges`)}];`);
        edgesTotal += m;
      } else {
        out.push(`    ${q(`a${c.b}`)} -> ${q(`c${c.x}`)} [label=${q(`${n ?? '?'}×${m} = ${n === undefined ? '?' : n * m} edges`)}];`);
        edgesTotal += (n ?? 0) * m;
      }
    }
    out.push('  }');
  }
  out.push(`  label=${q(`${edgesTotal} dependency edges`)};`, '}');
  return `${out.join('\n')}\n`;
}
