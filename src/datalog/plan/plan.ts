// Join plans: a clause's body ordered into steps (scans, index lookups, filters, assignments,
// negations, aggregates) over numbered variable slots. Shared by the code generator and the
// interpreter used for provenance.

import { freeVars } from '../check/ground.js';
import type { SymbolTable } from '../storage/symbols.js';
import { type AggOp, type ArithOp, type CmpOp, type FunctorName, type Literal, mapOperands, type Term } from '../syntax/ast.js';

export type Expr =
  | { k: 'slot'; s: number }
  /** A constant; `s` is the text of a symbol constant (`v` its id). */
  | { k: 'const'; v: number; s?: string }
  | { k: 'bin'; op: ArithOp; l: Expr; r: Expr }
  | { k: 'neg'; a: Expr }
  | { k: 'call'; fn: FunctorName; args: Expr[] };

export type ColSpec = { t: 'bind'; slot: number } | { t: 'key'; e: Expr } | { t: 'check'; slot: number } | { t: 'any' };

/** Which rows of a relation a scan reads: all (lower stratum), below the iteration limit, old or delta. */
export type Version = 'all' | 'full' | 'old' | 'delta';

export type Step =
  | { op: 'scan'; k: number; rel: number; version: Version; cols: ColSpec[]; keyCols: number[]; lit: Literal | null }
  | { op: 'neg'; k: number; rel: number; args: (Expr | null)[]; keyCols: number[]; lit: Literal }
  | { op: 'filter'; cmp: CmpOp; l: Expr; r: Expr; lit: Literal | null }
  | { op: 'assign'; slot: number; e: Expr; lit: Literal | null }
  | {
      op: 'agg';
      aggOp: AggOp;
      slot: number;
      target: Expr | null;
      body: Step[];
      term: Term & { kind: 'agg' };
      /** Slots of the outer variables the aggregate reads: its value depends on these alone. */
      keySlots: number[];
    };

/** A relation access of a plan (one per scan or negation step, numbered by `k`). */
export interface Access {
  rel: number;
  version: Version;
  /** Columns looked up through an index, or null for a range scan / full-tuple lookup. */
  keyCols: number[] | null;
  arity: number;
}

export interface Plan {
  slotNames: string[];
  steps: Step[];
  accesses: Access[];
  /** Head terms (null for a query plan that emits bindings). */
  head: Expr[] | null;
}

/** A body literal prepared for planning; aggregates are lifted to `agg` literals binding a variable. */
type PLit =
  | { k: 'atom'; rel: number; args: Term[]; pos: number; lit: Literal }
  | { k: 'neg'; rel: number; args: Term[]; lit: Literal }
  | { k: 'cmp'; op: CmpOp; left: Term; right: Term; lit: Literal | null }
  | { k: 'agg'; v: string; agg: Term & { kind: 'agg' } };

export interface PlanInput {
  body: readonly Literal[];
  head: readonly Term[] | null;
  /** Relation id of a name. */
  relId: (name: string) => number;
  arity: (rel: number) => number;
  size: (rel: number) => number;
  /** Relations of the stratum being evaluated (their atoms get versions). */
  recursive: ReadonlySet<number>;
  /** Index among the positive recursive atoms (textual order) read as delta, or -1. */
  delta: number;
  symbols: SymbolTable;
  /** Variables bound before the body runs (provenance queries). */
  prebound?: readonly string[];
  /** Where each choice of the next atom is recorded, in order (see Choice). */
  choices?: Choice[];
}

/**
 * One choice of the next atom to join (the only place sizes enter a plan): each candidate's
 * relation, bound columns, columns bound by a variable, and arity, four numbers a candidate in
 * `cands`; `pick` the candidate chosen (atomScore's least, the first of equals). The candidates of
 * a choice follow from the clause and the choices before it, so the sequence of picks determines
 * the plan: an evaluation replays the choices on its sizes to find a plan made before (PlanMemo).
 */
export interface Choice {
  cands: number[];
  pick: number;
}

/** The score of a candidate atom in a join order (least first): a fully bound atom, then one joined through a variable, smaller estimates first. */
export function atomScore(boundCols: number, joinCols: number, arity: number, size: number): number {
  // Estimated rows: each bound column is taken to cut the relation by a factor of 16.
  const estimate = size / 16 ** boundCols;
  // A column bound by a variable joins; one bound only by a constant (`stmt(S, "If", _, _)`)
  // is often unselective, so atoms joined through a variable go first.
  return boundCols === arity ? -1 : (joinCols > 0 ? 0 : boundCols > 0 ? 1e9 : 1e12) + estimate;
}

/** The candidate `choose` picks among the four-number candidates `cands` (Choice) with relation sizes `size`. */
export function choose(cands: readonly number[], size: (rel: number) => number): number {
  let best = -1;
  let bestScore = Infinity;
  for (let c = 0; c < cands.length; c += 4) {
    const score = atomScore(cands[c + 1]!, cands[c + 2]!, cands[c + 3]!, size(cands[c]!));
    if (score < bestScore) {
      bestScore = score;
      best = c / 4;
    }
  }
  return best;
}

/** Replaces each aggregate term by a fresh variable; returns the lifted aggregates. */
function liftTerm(t: Term, out: PLit[], counter: { n: number }): Term {
  switch (t.kind) {
    case 'agg': {
      const v = `$agg${counter.n++}`;
      out.push({ k: 'agg', v, agg: t });
      return { kind: 'var', name: v, loc: t.loc };
    }
    default:
      return mapOperands(t, (x) => liftTerm(x, out, counter));
  }
}

/** Builds the plan of a body (and head) for the given delta variant. */
export function buildPlan(input: PlanInput): Plan {
  const slots = new Map<string, number>();
  const slotNames: string[] = [];
  const slotOf = (v: string): number => {
    let s = slots.get(v);
    if (s === undefined) {
      s = slotNames.length;
      slotNames.push(v);
      slots.set(v, s);
    }
    return s;
  };
  const accesses: Access[] = [];
  const counter = { n: 0 };
  for (const v of input.prebound ?? []) slotOf(v);

  const compileExpr = (t: Term): Expr => {
    switch (t.kind) {
      case 'var':
        return { k: 'slot', s: slotOf(t.name) };
      case 'num':
        return { k: 'const', v: input.symbols.numbers.fromBig(t.value) };
      case 'str':
        return { k: 'const', v: input.symbols.intern(t.value), s: t.value };
      case 'bin':
        return { k: 'bin', op: t.op, l: compileExpr(t.left), r: compileExpr(t.right) };
      case 'neg':
        return { k: 'neg', a: compileExpr(t.arg) };
      case 'call':
        return { k: 'call', fn: t.fn, args: t.args.map(compileExpr) };
      default:
        throw new Error(`cannot compile ${t.kind} as an expression`);
    }
  };

  const planBody = (body: readonly Literal[], bound: Set<string>, top: boolean): Step[] => {
    const lits: PLit[] = [];
    let pos = 0;
    for (const l of body) {
      if (l.kind === 'cmp') {
        const left = liftTerm(l.left, lits, counter);
        const right = liftTerm(l.right, lits, counter);
        lits.push({ k: 'cmp', op: l.op, left, right, lit: l });
      } else {
        const args = l.atom.args.map((a) => liftTerm(a, lits, counter));
        const rel = input.relId(l.atom.rel);
        if (l.kind === 'atom') lits.push({ k: 'atom', rel, args, pos: top && input.recursive.has(rel) ? pos++ : -1, lit: l });
        else lits.push({ k: 'neg', rel, args, lit: l });
      }
    }
    const steps: Step[] = [];
    // The plan runs once (a top-level body with nothing of the stratum's recursion in it, no
    // variable bound from outside): its first scan reads its relation once, so keys made of
    // constants (`expr(E, "Int", _, _)`) filter the rows as they are read instead of building an
    // index on them, which the relation would hold while it lives (a large relation's index,
    // with the evaluation's peak still ahead).
    const once = top && (input.prebound?.length ?? 0) === 0 && lits.every((l) => l.k !== 'atom' || l.pos < 0);
    const ready = (t: Term): boolean => {
      // (A variable or constant, most arguments: no set of free variables made.)
      if (t.kind === 'var') return bound.has(t.name);
      if (t.kind === 'num' || t.kind === 'str' || t.kind === 'wildcard') return true;
      for (const v of freeVars(t)) if (!bound.has(v)) return false;
      return true;
    };
    const remaining = [...lits];
    const take = (i: number): PLit => remaining.splice(i, 1)[0]!;

    const emitAtom = (a: PLit & { k: 'atom' }): void => {
      const k = accesses.length;
      const cols: ColSpec[] = [];
      const keyCols: number[] = [];
      const local = new Set<string>();
      a.args.forEach((t0, c) => {
        let t = t0;
        if (t.kind !== 'wildcard' && t.kind !== 'var' && !ready(t)) {
          // An expression whose variables are not bound yet (some are bound by this very atom,
          // or later): read the column into a fresh variable, compare once the expression is ready.
          const v = `$eq${counter.n++}`;
          remaining.push({ k: 'cmp', op: '=', left: { kind: 'var', name: v, loc: t.loc }, right: t, lit: null });
          t = { kind: 'var', name: v, loc: t.loc };
        }
        if (t.kind === 'wildcard') cols.push({ t: 'any' });
        else if (t.kind === 'var' && !bound.has(t.name)) {
          if (local.has(t.name)) cols.push({ t: 'check', slot: slotOf(t.name) });
          else {
            local.add(t.name);
            cols.push({ t: 'bind', slot: slotOf(t.name) });
          }
        } else {
          cols.push({ t: 'key', e: compileExpr(t) });
          keyCols.push(c);
        }
      });
      for (const v of local) bound.add(v);
      let version: Version = 'all';
      if (a.pos >= 0) version = input.delta < 0 ? 'full' : a.pos === input.delta ? 'delta' : a.pos < input.delta ? 'old' : 'full';
      const arity = a.args.length;
      const outerOnce = once && !steps.some((st) => st.op === 'scan');
      const useIndex = version !== 'delta' && !outerOnce && keyCols.length > 0 && keyCols.length < arity;
      accesses.push({ rel: a.rel, version, keyCols: useIndex ? keyCols : null, arity });
      // (No index: the constant columns are checked in a range scan of every row.)
      steps.push({ op: 'scan', k, rel: a.rel, version, cols, keyCols: outerOnce && keyCols.length < arity ? [] : keyCols, lit: a.lit });
    };

    /** Emits every literal that is ready now (filters, assignments, negations, aggregates). */
    const drain = (): void => {
      for (let progress = true; progress; ) {
        progress = false;
        for (let i = 0; i < remaining.length; i++) {
          const l = remaining[i]!;
          if (l.k === 'cmp') {
            const lr = ready(l.left);
            const rr = ready(l.right);
            if (lr && rr) steps.push({ op: 'filter', cmp: l.op, l: compileExpr(l.left), r: compileExpr(l.right), lit: l.lit });
            else if (l.op === '=' && l.left.kind === 'var' && rr) {
              steps.push({ op: 'assign', slot: slotOf(l.left.name), e: compileExpr(l.right), lit: l.lit });
              bound.add(l.left.name);
            } else if (l.op === '=' && l.right.kind === 'var' && lr) {
              steps.push({ op: 'assign', slot: slotOf(l.right.name), e: compileExpr(l.left), lit: l.lit });
              bound.add(l.right.name);
            } else continue;
          } else if (l.k === 'neg') {
            if (!l.args.every(ready)) continue;
            const k = accesses.length;
            const args = l.args.map((t) => (t.kind === 'wildcard' ? null : compileExpr(t)));
            const keyCols = args.flatMap((e, c) => (e ? [c] : []));
            const arity = l.args.length;
            accesses.push({ rel: l.rel, version: 'all', keyCols: keyCols.length > 0 && keyCols.length < arity ? keyCols : null, arity });
            steps.push({ op: 'neg', k, rel: l.rel, args, keyCols, lit: l.lit });
          } else if (l.k === 'agg') {
            if (![...freeVars(l.agg)].every((v) => bound.has(v))) continue;
            const inner = new Set(bound);
            const body = planBody(l.agg.body, inner, false);
            const target = l.agg.target ? compileExpr(liftTerm(l.agg.target, [], counter)) : null;
            const keySlots = [...freeVars(l.agg)].map(slotOf);
            // An equality or an atom may have bound the aggregate's variable first (`1 = count :
            // {...}`, `M = W, M = max X : {...}`): the aggregate then filters, it must not re-bind.
            const into = bound.has(l.v) ? `$agg${counter.n++}` : l.v;
            steps.push({ op: 'agg', aggOp: l.agg.op, slot: slotOf(into), target, body, term: l.agg, keySlots });
            if (into !== l.v)
              steps.push({ op: 'filter', cmp: '=', l: { k: 'slot', s: slotOf(l.v) }, r: { k: 'slot', s: slotOf(into) }, lit: null });
            bound.add(l.v);
          } else continue;
          remaining.splice(i, 1);
          i--;
          progress = true;
        }
      }
    };

    if (top && input.delta >= 0) {
      const i = remaining.findIndex((l) => l.k === 'atom' && l.pos === input.delta);
      emitAtom(take(i) as PLit & { k: 'atom' });
    }
    drain();
    while (remaining.length > 0) {
      const cands: number[] = [];
      const at: number[] = [];
      for (let i = 0; i < remaining.length; i++) {
        const l = remaining[i]!;
        if (l.k !== 'atom') continue;
        const boundCols = l.args.filter((t) => t.kind !== 'wildcard' && (t.kind === 'var' ? bound.has(t.name) : ready(t))).length;
        const joinCols = l.args.filter((t) => t.kind === 'var' && bound.has(t.name)).length;
        cands.push(l.rel, boundCols, joinCols, l.args.length);
        at.push(i);
      }
      const pick = choose(cands, input.size);
      if (pick < 0) {
        throw new Error('internal: a body literal can never be evaluated (the grounding check should have caught it)');
      }
      input.choices?.push({ cands, pick });
      const best = at[pick]!;
      emitAtom(take(best) as PLit & { k: 'atom' });
      drain();
    }
    return steps;
  };

  const bound = new Set<string>(input.prebound ?? []);
  const steps = planBody(input.body, bound, true);
  const head = input.head ? input.head.map((t) => compileExpr(t)) : null;
  return { slotNames, steps, accesses, head };
}
