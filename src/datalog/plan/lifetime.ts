// When evaluation is done with a relation's lookup structures: after the last stratum whose rules
// read it, its hash indexes and dedup set are dropped (the rows stay, for the outputs and for
// provenance, which rebuilds what a query needs); and which relations each stratum reads, so that
// a relation the next stratum does not read holds no index meanwhile.
import type { RuleProgram } from '../check/program.js';

/**
 * For each stratum (by position in `program.strata`), the relations that no stratum evaluated
 * after it reads; `evaluated(i)` tells whether stratum `i` is evaluated at all.
 */
export function lastReaders(program: RuleProgram, evaluated: (stratum: number) => boolean): number[][] {
  const stratumOf = new Int32Array(program.relations.length).fill(-1);
  program.strata.forEach((s, i) => {
    for (const r of s.relations) stratumOf[r] = i;
  });
  const last = new Int32Array(program.relations.length).fill(-1);
  const edges = program.edges;
  for (const e of edges) {
    const s = stratumOf[e.from]!;
    if (e.to < 0 || s < 0 || !evaluated(s)) continue;
    if (s > last[e.to]!) last[e.to] = s;
  }
  const out: number[][] = program.strata.map(() => []);
  last.forEach((s, rel) => {
    if (s >= 0) out[s]!.push(rel);
  });
  return out;
}

/**
 * For each stratum (by position in `program.strata`), the relations its rules read (in their
 * bodies: positive, negated, in aggregates).
 */
export function readsOf(program: RuleProgram): Set<number>[] {
  const stratumOf = new Int32Array(program.relations.length).fill(-1);
  program.strata.forEach((s, i) => {
    for (const r of s.relations) stratumOf[r] = i;
  });
  const out = program.strata.map(() => new Set<number>());
  for (const e of program.edges) {
    const s = stratumOf[e.from]!;
    if (e.to >= 0 && s >= 0) out[s]!.add(e.to);
  }
  return out;
}
