// A deliberately naive reference evaluator: decoded values, string-keyed sets, no indexes, the
// body solved by backtracking in written order, each stratum recomputed in full to a fixpoint.
// Numbers are exact 64-bit values computed with BigInt (number when safe, else bigint).
// Used to cross-check the optimized evaluator; do not use it on large inputs.

import { compare } from '../check/consts.js';
import { applyFunctor } from '../check/functors.js';
import type { RuleProgram } from '../check/program.js';
import { type Literal, operands, type Term, type Value } from '../syntax/ast.js';
import { arith64, bigOf, type Num, normNum } from '../syntax/int64.js';
import { compareTuples } from './result.js';

type Env = Map<string, Value>;

/** The key of a tuple: symbols quoted, numbers in decimal (canonical values). */
function tupleKey(t: readonly Value[]): string {
  return t.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v))).join(',');
}

/** A value in canonical form (an integral number beyond 2^53 becomes a bigint, a safe bigint a number). */
function canonical(v: Value): Value {
  return typeof v === 'string' ? v : normNum(bigOf(v));
}

class NaiveRel {
  readonly rows = new Map<string, Value[]>();
  add(t: Value[]): boolean {
    const k = tupleKey(t);
    if (this.rows.has(k)) return false;
    this.rows.set(k, t);
    return true;
  }
  has(t: Value[]): boolean {
    return this.rows.has(tupleKey(t));
  }
}

/** Evaluates `program` on `input` (relation name → tuples); returns every relation, sorted. */
export function evaluateNaive(program: RuleProgram, input: ReadonlyMap<string, readonly (readonly Value[])[]>): Map<string, Value[][]> {
  const rels = program.relations.map(() => new NaiveRel());
  for (const [name, tuples] of input) {
    const info = program.relation(name);
    if (!info) throw new Error(`unknown relation ${name}`);
    for (const t of tuples) rels[info.id]!.add(t.map(canonical));
  }
  const relOf = (name: string): NaiveRel => rels[program.byName.get(name)!.id]!;

  const ready = (t: Term, env: Env): boolean => {
    switch (t.kind) {
      case 'var':
        return env.has(t.name);
      case 'wildcard':
        return false;
      case 'bin':
      case 'neg':
      case 'call':
        return operands(t).every((x) => ready(x, env));
      case 'agg': {
        const locals = new Set(t.locals ?? []);
        const vars: string[] = [];
        const collect = (x: Term): void => {
          if (x.kind === 'var') vars.push(x.name);
          else if (x.kind === 'agg') {
            if (x.target) collect(x.target);
            for (const l of x.body) (l.kind === 'cmp' ? [l.left, l.right] : l.atom.args).forEach(collect);
          } else operands(x).forEach(collect);
        };
        collect(t);
        return vars.every((v) => env.has(v) || locals.has(v) || v.includes('@'));
      }
      default:
        return true;
    }
  };

  /** The value of a ready term, or undefined when it has none (division by zero, empty min/max). */
  const value = (t: Term, env: Env): Value | undefined => {
    switch (t.kind) {
      case 'var':
        return env.get(t.name);
      case 'num':
        return normNum(t.value);
      case 'str':
        return t.value;
      case 'wildcard':
        return undefined;
      case 'neg': {
        const a = value(t.arg, env);
        return a === undefined ? undefined : (arith64('-', 0, a as Num) as Num);
      }
      case 'bin': {
        const l = value(t.left, env);
        const r = value(t.right, env);
        if (l === undefined || r === undefined) return undefined;
        return arith64(t.op, l as Num, r as Num) ?? undefined;
      }
      case 'call': {
        const args: Value[] = [];
        for (const a of t.args) {
          const v = value(a, env);
          if (v === undefined) return undefined;
          args.push(v);
        }
        return applyFunctor(t.fn, args) ?? undefined;
      }
      case 'agg': {
        let acc: Num = 0;
        let found = false;
        solve(t.body, new Map(env), (e) => {
          if (t.op === 'count') acc = (acc as number) + 1;
          else {
            const v = value(t.target!, e);
            if (v === undefined) return;
            const n = v as Num;
            if (t.op === 'sum') acc = arith64('+', acc, n)!;
            else if (!found || (t.op === 'min' ? n < acc : n > acc)) acc = n;
            found = true;
          }
        });
        if ((t.op === 'min' || t.op === 'max') && !found) return undefined;
        return acc;
      }
    }
  };

  const literalReady = (l: Literal, env: Env): boolean => {
    if (l.kind === 'atom') return l.atom.args.every((a) => a.kind === 'var' || a.kind === 'wildcard' || ready(a, env));
    if (l.kind === 'neg') return l.atom.args.every((a) => a.kind === 'wildcard' || ready(a, env));
    if (ready(l.left, env) && ready(l.right, env)) return true;
    if (l.op !== '=') return false;
    return (l.left.kind === 'var' && ready(l.right, env)) || (l.right.kind === 'var' && ready(l.left, env));
  };

  const solve = (lits: readonly Literal[], env: Env, emit: (env: Env) => void): void => {
    if (lits.length === 0) {
      emit(env);
      return;
    }
    let i = lits.findIndex((l) => literalReady(l, env));
    // Every atom has an expression argument that needs variables bound later: take the first.
    if (i < 0) i = lits.findIndex((l) => l.kind === 'atom');
    if (i < 0) throw new Error('naive: no literal can be evaluated');
    const l = lits[i]!;
    const rest = [...lits.slice(0, i), ...lits.slice(i + 1)];
    if (l.kind === 'atom') {
      for (const tuple of [...relOf(l.atom.rel).rows.values()]) {
        const e = new Map(env);
        let ok = true;
        // Variables first, then expressions (which may use variables of this atom).
        for (let c = 0; c < tuple.length && ok; c++) {
          const a = l.atom.args[c]!;
          if (a.kind !== 'var') continue;
          if (!e.has(a.name)) e.set(a.name, tuple[c]!);
          else if (e.get(a.name) !== tuple[c]) ok = false;
        }
        const later: Literal[] = [];
        for (let c = 0; c < tuple.length && ok; c++) {
          const a = l.atom.args[c]!;
          if (a.kind === 'var' || a.kind === 'wildcard') continue;
          const v = tuple[c]!;
          if (ready(a, e)) ok = value(a, e) === v;
          else
            later.push({
              kind: 'cmp',
              op: '=',
              left: typeof v === 'string' ? { kind: 'str', value: v, loc: a.loc } : { kind: 'num', value: bigOf(v), loc: a.loc },
              right: a,
              loc: a.loc,
            });
        }
        if (ok) solve([...later, ...rest], e, emit);
      }
    } else if (l.kind === 'neg') {
      const rel = relOf(l.atom.rel);
      const pattern = l.atom.args.map((a) => (a.kind === 'wildcard' ? undefined : value(a, env)));
      if (l.atom.args.some((a, c) => a.kind !== 'wildcard' && pattern[c] === undefined)) return;
      const present = [...rel.rows.values()].some((t) => t.every((v, c) => pattern[c] === undefined || pattern[c] === v));
      if (!present) solve(rest, env, emit);
    } else {
      const lr = ready(l.left, env);
      const rr = ready(l.right, env);
      if (lr && rr) {
        const a = value(l.left, env);
        const b = value(l.right, env);
        if (a !== undefined && b !== undefined && compare(l.op, a, b)) solve(rest, env, emit);
      } else {
        const [v, other] = !lr ? [l.left, l.right] : [l.right, l.left];
        const x = value(other, env);
        if (x === undefined || v.kind !== 'var') return;
        const e = new Map(env);
        e.set(v.name, x);
        solve(rest, e, emit);
      }
    }
  };

  for (const stratum of program.strata) {
    const clauses = stratum.clauses.map((id) => program.clauses[id]!);
    for (let changed = true; changed; ) {
      changed = false;
      for (const pc of clauses) {
        const derived: Value[][] = [];
        solve(pc.clause.body, new Map(), (env) => {
          const t = pc.clause.head.args.map((a) => value(a, env));
          if (t.every((v) => v !== undefined)) derived.push(t as Value[]);
        });
        for (const t of derived) if (rels[pc.head]!.add(t)) changed = true;
      }
    }
  }
  const out = new Map<string, Value[][]>();
  program.relations.forEach((info, i) => out.set(info.name, [...rels[i]!.rows.values()].sort(compareTuples)));
  return out;
}
