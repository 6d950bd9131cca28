// Semi-naive evaluation, stratum by stratum, of a checked program over a fact database.

import { arith } from '../check/consts.js';
import { functorRuntime } from '../check/functors.js';
import { isFactClause, MemoSlot, type ProgramClause, type RuleProgram, summaryOf } from '../check/program.js';
import { buildPlan, type Choice, type Plan } from '../plan/plan.js';
import { PlanMemo } from '../plan/plan-memo.js';
import type { Index } from '../storage/column-index.js';
import type { FactDatabase } from '../storage/database.js';
import { Relation } from '../storage/relation.js';
import { RowLimit } from '../storage/row-limit.js';
import type { Term } from '../syntax/ast.js';
import { hasBigNumber } from './big-numbers.js';
import { type Clock, type CompiledPlan, compilePlan } from './codegen.js';
import { FactRows } from './fact-rows.js';
import { EvaluationTimeout, TupleLimitExceeded } from './limits.js';
import { packed } from './packed.js';

export { EvaluationStopped, EvaluationTimeout, TupleLimitExceeded } from './limits.js';

import { lastReaders, readsOf } from '../plan/lifetime.js';
import type { SymbolTable } from '../storage/symbols.js';
import { MemoSet } from './memo.js';
import { COMPILED_PLANS, PREBUILT_PLANS } from './prebuilt-plans.js';
import { EvalResult } from './result.js';
import { loadPackedFacts, WRITTEN_FACTS } from './written-facts.js';

/** Rows a join reads between two looks at the clock. */
const POLL = 1 << 14;

/** Thrown by the clock inside a join when the deadline has passed (run() turns it into an EvaluationTimeout). */
const PAST_DEADLINE = new Error('past the deadline');

/** A compiled plan with its per-run buffers. */
interface Runner {
  plan: Plan;
  fn: CompiledPlan;
  R: Relation[];
  X: (Index | null)[];
  B: Int32Array;
  S: Float64Array[];
  T: Float64Array;
  out: Relation;
  /** Access numbers of the top-level positive scans (an empty one makes the run a no-op). */
  top: number[];
}

/**
 * The plans of a program's evaluations and the functions compiled from them, by clause and
 * delta variant (PlanMemo: found again from the sizes of each evaluation's relations), and which
 * clauses have a number literal beyond ±(2^53 - 1) (their plans are not kept: see makeRunner).
 */
const PLANS = new MemoSlot('plans by clause variant', () => {
  const big = new Map<number, boolean>();
  return {
    memo: new PlanMemo<{ plan: Plan; fn: CompiledPlan; top: number[]; B: Int32Array; S: Float64Array[]; T: Float64Array }>(),
    boxed(pc: ProgramClause): boolean {
      let b = big.get(pc.id);
      if (b === undefined) big.set(pc.id, (b = hasBigNumber(pc.clause)));
      return b;
    },
  };
});

/** The relations each `keep` set of an evaluation needs (by its sorted names; see neededFor). */
const NEEDED_BY_KEEP = new MemoSlot('needed relations by keep set', () => new Map<string, Set<number>>());

/** The encoded value of a constant term (a fact argument), or null on division by zero. */
export function constValue(t: Term, symbols: SymbolTable): number | null {
  switch (t.kind) {
    case 'num':
      return symbols.numbers.fromBig(t.value);
    case 'str':
      return symbols.intern(t.value);
    case 'neg': {
      const a = constValue(t.arg, symbols);
      return a === null ? null : symbols.numbers.neg(a);
    }
    case 'bin': {
      const l = constValue(t.left, symbols);
      const r = constValue(t.right, symbols);
      return l === null || r === null ? null : arith(t.op, l, r, symbols.numbers);
    }
    case 'call': {
      const args: number[] = [];
      for (const a of t.args) {
        const v = constValue(a, symbols);
        if (v === null) return null;
        args.push(v);
      }
      return functorRuntime(symbols).apply(t.fn, args);
    }
    default:
      throw new Error(`a fact argument must be constant, not ${t.kind}`);
  }
}

/**
 * Each stratum's rules as evaluation reads them, prepared once per program: the stratum's own
 * relations when it is recursive (`rec`), and per rule (facts left out) the relations of its
 * top-level positive atoms of lower strata (`lower`: an empty one makes the rule derive nothing)
 * and of its own stratum (`recursive`, in textual order: one delta variant each).
 */
const STRATA = new MemoSlot('strata prepared for evaluation', (program: RuleProgram) =>
  program.strata.map((s) => {
    const rec: ReadonlySet<number> = new Set(s.recursive ? s.relations : []);
    const rules = s.clauses
      .map((id) => program.clauses[id]!)
      .filter((pc) => !isFactClause(pc))
      .map((pc) => {
        const atoms = summaryOf(pc, program).positive;
        return { pc, lower: atoms.filter((r) => !rec.has(r)), recursive: atoms.filter((r) => rec.has(r)) };
      });
    return { rec, rules };
  }),
);

export interface EvaluateOptions {
  /**
   * Evaluate only the relations the `.output` and `.printsize` relations depend on (default
   * true). Outputs and their proofs are the same either way; set false to query any relation.
   */
  prune?: boolean;
  /** A `performance.now()` value: past it, evaluation stops with an EvaluationTimeout. */
  deadline?: number;
  /** Seconds this evaluation may take (the deadline, when not given, is counted from its start). */
  timeoutSeconds?: number;
  /** A relation may hold at most this many tuples; past it, evaluation stops with TupleLimitExceeded. */
  maxTuples?: number;
  /**
   * Keep only these relations and the `.printsize` ones for the result (default: every relation,
   * for explain, why-not and queries): with `prune`, only what they depend on is evaluated — an
   * `.output` not kept (an explanation a caller never reads) is not. Every other relation, input
   * relations included, is freed as soon as no later stratum reads it: the database gives up its
   * input relations then (evaluate it once), and reading a freed relation from the result throws.
   */
  keep?: ReadonlySet<string>;
}

/** Evaluates `program` on the facts of `db`; the database itself is not modified. */
export function evaluate(program: RuleProgram, db: FactDatabase, options: EvaluateOptions = {}): EvalResult {
  db.checkComplete();
  const needed = options.prune === false ? null : options.keep ? neededFor(program, options.keep) : neededRelations(program);
  // --timeout S: S seconds from the start of this evaluation (an explicit deadline wins).
  const deadline =
    options.deadline ?? (options.timeoutSeconds !== undefined ? performance.now() + options.timeoutSeconds * 1000 : undefined);
  const maxTuples = options.maxTuples;
  const symbols = db.symbols;
  const relId = (n: string): number => program.byName.get(n)!.id;
  const facts = program.memo(WRITTEN_FACTS);
  const factRows = new FactRows(facts.offsets);
  const given = db.relations; // (a getter that builds the buffered relations: read once)
  // (The arrays optimised code reads are filled by push, never by `map`: see `packed`.)
  const rels: Relation[] = [];
  const inputCounts: number[] = [];
  for (const info of program.relations) {
    const stored = given[info.id];
    const rel = !stored ? new Relation(info.kinds.length, 0) : info.input && !facts.rels.has(info.id) ? stored : stored.clone();
    rels.push(rel);
    inputCounts.push(stored ? rel.count : 0);
  }

  // Facts written in the rule files: height 0, remembered for provenance.
  const addFact = (head: number, clauseId: number, t: Float64Array): void => {
    const rel = rels[head]!;
    if (rel.add(t, 0)) factRows.add(head, rel.count - 1, clauseId);
  };
  if (facts.plain) loadPackedFacts(facts, symbols, rels, factRows);
  else {
    for (const pc of facts.clauses) {
      const t = new Float64Array(Math.max(1, pc.clause.head.args.length));
      let ok = true;
      pc.clause.head.args.forEach((a, i) => {
        const v = constValue(a, symbols);
        if (v === null) ok = false;
        else t[i] = v;
      });
      if (ok) addFact(pc.head, pc.id, t);
    }
  }
  // --max-tuples bounds what the rules derive: the input facts and the facts written in the rule
  // files (an op catalog of a thousand facts) are the program's own, never past the bound.
  if (maxTuples !== undefined) rels.forEach((r) => (r.limit = Math.max(maxTuples, r.count)));

  // The database's arena: where the relations' arrays come from and go back to (see arena.ts).
  const pool = db.arena;
  let height = 0;
  const fns = functorRuntime(symbols);
  const memos = new MemoSet(pool);
  // The deadline is also checked inside a join, every POLL rows its loops read (one rule's join
  // of three 300-row relations makes 27M tuples: seconds, gigabytes).
  const clock: Clock = {
    n: deadline === undefined ? Number.MAX_SAFE_INTEGER : POLL,
    poll() {
      if (deadline === undefined) this.n = Number.MAX_SAFE_INTEGER;
      else if (performance.now() > deadline) throw PAST_DEADLINE;
      else this.n = POLL;
    },
  };
  const lo = new Int32Array(rels.length);
  const lim = new Int32Array(rels.length);

  // The relations that may hold indexes or a dedup set (see the loop over the strata): every one
  // at first, then those a join read or wrote since they were let go of.
  const touched = new Int32Array(rels.length);
  for (let r = 0; r < rels.length; r++) touched[r] = r;
  const isTouched = new Uint8Array(rels.length).fill(1);
  let touchedCount = rels.length;
  const touch = (r: number): void => {
    if (isTouched[r] === 1) return;
    isTouched[r] = 1;
    touched[touchedCount++] = r;
  };
  const size = (r: number): number => rels[r]!.count;
  const plans = program.memo(PLANS);
  const makeRunner = (pc: ProgramClause, rec: ReadonlySet<number>, delta: number): Runner => {
    const c = pc.clause;
    const key = `${pc.id}:${delta}`;
    let made = plans.memo.get(key, size);
    if (!made) {
      const choices: Choice[] = [];
      const plan = buildPlan({
        body: c.body,
        head: c.head.args,
        relId,
        arity: (r) => rels[r]!.arity,
        size,
        recursive: rec,
        delta,
        symbols,
        choices,
      });
      made = {
        plan,
        fn: compilePlan(plan, program.memo(COMPILED_PLANS), program.memo(PREBUILT_PLANS)),
        top: plan.steps.flatMap((s) => (s.op === 'scan' ? [s.k] : [])),
        B: new Int32Array(2 * plan.accesses.length),
        S: packed(plan.accesses, (a) => new Float64Array(Math.max(1, a.arity))),
        T: new Float64Array(Math.max(1, c.head.args.length)),
      };
      // (A number beyond ±(2^53 - 1) is a box of this database's table: that plan is this database's.)
      if (!plans.boxed(pc)) plans.memo.put(key, choices, made);
    }
    // (The scratch arrays B, S, T are the plan's: a clause variant runs once at a time, in one stratum of an evaluation.)
    const { plan, fn, top, B, S, T } = made;
    for (let k = 0; k < plan.accesses.length; k++) touch(plan.accesses[k]!.rel);
    touch(pc.head);
    return {
      plan,
      fn,
      R: packed(plan.accesses, (a) => rels[a.rel]!),
      X: packed(plan.accesses, (a) => (a.keyCols ? rels[a.rel]!.index(a.keyCols) : null)),
      B,
      S,
      T,
      out: rels[pc.head]!,
      top,
    };
  };

  const run = (r: Runner): void => {
    const acc = r.plan.accesses;
    const B = r.B;
    for (let k = 0; k < acc.length; k++) {
      const a = acc[k]!;
      const rel = a.rel;
      switch (a.version) {
        case 'all':
          B[2 * k] = 0;
          B[2 * k + 1] = rels[rel]!.count;
          break;
        case 'full':
          B[2 * k] = 0;
          B[2 * k + 1] = lim[rel]!;
          break;
        case 'old':
          B[2 * k] = 0;
          B[2 * k + 1] = lo[rel]!;
          break;
        case 'delta':
          B[2 * k] = lo[rel]!;
          B[2 * k + 1] = lim[rel]!;
          break;
      }
    }
    const top = r.top;
    for (let j = 0; j < top.length; j++) if (B[2 * top[j]! + 1]! <= B[2 * top[j]!]!) return;
    try {
      try {
        r.fn(r.R, r.X, B, r.S, r.T, r.out, height, fns, memos, clock);
      } finally {
        memos.release();
      }
      // The join read its arrays only while it ran: what it let go of can be reused now.
      pool.recycle();
    } catch (e) {
      if (e instanceof RowLimit) throw new TupleLimitExceeded(program.relations[rels.indexOf(r.out)]!, height, maxTuples!);
      if (e === PAST_DEADLINE)
        throw new EvaluationTimeout(program.relations[rels.indexOf(r.out)]!, height, r.out.count, options.timeoutSeconds);
      throw e;
    }
    if (maxTuples !== undefined && r.out.count > maxTuples)
      throw new TupleLimitExceeded(program.relations[rels.indexOf(r.out)]!, height, maxTuples);
  };

  const strata = program.memo(STRATA);
  /** True when none of relations `rs` is empty. (Loops by index here: these run in every evaluation, mostly before V8 optimises them.) */
  const allNonEmpty = (rs: readonly number[]): boolean => {
    for (let k = 0; k < rs.length; k++) if (rels[rs[k]!]!.count === 0) return false;
    return true;
  };
  const evalStratum = (i: number): void => {
    const s = program.strata[i]!;
    const { rec, rules: all } = strata[i]!;
    if (all.length === 0) return;
    // A rule with a positive atom of an empty lower-stratum relation (complete) derives nothing:
    // no plan is built or compiled for it (most rules of a contract on a small kernel).
    const rules: typeof all = [];
    for (let k = 0; k < all.length; k++) if (allNonEmpty(all[k]!.lower)) rules.push(all[k]!);
    const own = s.relations;
    for (let k = 0; k < own.length; k++) {
      lo[own[k]!] = 0;
      lim[own[k]!] = rels[own[k]!]!.count;
    }
    // Nor for the first round when one of its positive atoms of this stratum is still empty: its
    // plan is made when a round first gives that atom's relation new rows (its delta variant).
    const initial: Runner[] = [];
    for (let k = 0; k < rules.length; k++) if (allNonEmpty(rules[k]!.recursive)) initial.push(makeRunner(rules[k]!.pc, rec, -1));
    height++;
    for (let k = 0; k < initial.length; k++) run(initial[k]!);
    if (!s.recursive) return;
    const variants: Array<{ runner: Runner | null; pc: ProgramClause; atom: number; rel: number }> = [];
    for (const c of rules) {
      c.recursive.forEach((rel, atom) => {
        variants.push({ runner: null, pc: c.pc, atom, rel });
      });
    }
    const before = s.relations.map((r) => rels[r]!.count);
    for (;;) {
      if (deadline !== undefined && performance.now() > deadline) {
        // The relation that grew most in this stratum is named (the one not reaching a fixpoint).
        let grew = 0;
        s.relations.forEach((r, i) => {
          if (rels[r]!.count - before[i]! > rels[s.relations[grew]!]!.count - before[grew]!) grew = i;
        });
        const r = s.relations[grew]!;
        throw new EvaluationTimeout(program.relations[r]!, height, rels[r]!.count, options.timeoutSeconds);
      }
      let any = false;
      for (let k = 0; k < own.length; k++) {
        const r = own[k]!;
        lo[r] = lim[r]!;
        lim[r] = rels[r]!.count;
        if (lim[r]! > lo[r]!) any = true;
      }
      if (!any) break;
      height++;
      for (let k = 0; k < variants.length; k++) {
        const v = variants[k]!;
        if (lim[v.rel]! > lo[v.rel]!) run((v.runner ??= makeRunner(v.pc, rec, v.atom)));
      }
    }
  };

  const { evaluated, done, reads, nextEvaluated, free } = schedule(program, needed, options.keep);
  const released = new Set<number>();
  const release = (r: number): void => {
    rels[r]!.pool = pool;
    rels[r]!.free();
    rels[r] = new Relation(rels[r]!.arity, 0);
    db.release(r);
    released.add(r);
  };
  for (const r of free?.get(-1) ?? []) release(r);
  pool.recycle();
  for (const r of rels) r.pool = pool;
  try {
    for (let i = 0; i < program.strata.length; i++) {
      if (!evaluated[i]) continue;
      const s = program.strata[i]!;
      evalStratum(i);
      // Memory: a complete relation needs no dedup set or spare rows, one no later rule reads no indexes.
      for (let k = 0; k < s.relations.length; k++) rels[s.relations[k]!]!.compact();
      const last = done[i]!;
      for (let k = 0; k < last.length; k++) rels[last[k]!]!.releaseIndexes();
      // A relation the next stratum does not read holds no index until one that does (which
      // builds what it needs again): at a large evaluation's peak, most indexes and sets belong
      // to relations read strata later. Only a relation a join read or wrote since it
      // was last let go of can hold one (`touched`).
      const next = nextEvaluated[i]!;
      let kept = 0;
      for (let j = 0; j < touchedCount; j++) {
        const r = touched[j]!;
        if (next < 0 || !reads[next]!.has(r)) {
          rels[r]!.releaseIndexes();
          isTouched[r] = 0;
        } else touched[kept++] = r;
      }
      touchedCount = kept;
      for (const r of free?.get(i) ?? []) release(r);
      pool.recycle(); // no compiled join runs between strata: the arrays let go of can be reused
      pool.renewFree(); // (and the pages of chunks left wholly free given back)
    }
  } finally {
    for (const r of rels) r.pool = null;
  }
  return new EvalResult(program, rels, symbols, factRows, inputCounts, released, pool);
}

/** Which strata an evaluation runs and when it lets relations and their indexes go (see evaluate). */
interface Schedule {
  evaluated: boolean[];
  /** The relations whose last reader is each stratum (lastReaders). */
  done: number[][];
  /** The relations each stratum reads. */
  reads: Set<number>[];
  /** The next stratum evaluated after each one (-1: none). */
  nextEvaluated: number[];
  /** With `keep`: the relations freed after each stratum (-1: before the first), see freeAfter. */
  free: Map<number, number[]> | null;
}

const SCHEDULES = new MemoSlot('evaluation schedules by needed relations and keep set', () => new Map<string, Schedule>());

/** The schedule of an evaluation of `program` that needs `needed` (null: every relation) and keeps `keep`, made once per program. */
function schedule(program: RuleProgram, needed: ReadonlySet<number> | null, keep: ReadonlySet<string> | undefined): Schedule {
  const key = `${needed === null ? 'all' : keep ? 'keep' : 'outputs'}\u0001${keep ? [...keep].sort().join('\0') : ''}`;
  const memo = program.memo(SCHEDULES);
  const hit = memo.get(key);
  if (hit) return hit;
  const evaluated = program.strata.map((s) => needed === null || s.relations.some((r) => needed.has(r)));
  const done = lastReaders(program, (i) => evaluated[i]!);
  const nextEvaluated = program.strata.map(() => -1);
  for (let i = program.strata.length - 2, n = -1; i >= 0; i--) {
    if (evaluated[i + 1]) n = i + 1;
    nextEvaluated[i] = n;
  }
  const free = keep ? freeAfter(program, keep, (i) => evaluated[i]!, done) : null;
  const made = { evaluated, done, reads: readsOf(program), nextEvaluated, free };
  memo.set(key, made);
  return made;
}

/**
 * For `keep`: the relations to free after each stratum (key -1: before the first) — every
 * relation neither kept nor an output, after the last evaluated stratum that reads or derives it.
 */
function freeAfter(
  program: RuleProgram,
  keep: ReadonlySet<string>,
  evaluated: (i: number) => boolean,
  done: readonly number[][],
): Map<number, number[]> {
  const last = new Int32Array(program.relations.length).fill(-1);
  program.strata.forEach((s, i) => {
    if (!evaluated(i)) return;
    for (const r of s.relations) last[r] = Math.max(last[r]!, i);
    for (const r of done[i]!) last[r] = Math.max(last[r]!, i);
  });
  const out = new Map<number, number[]>();
  program.relations.forEach((info, r) => {
    if (info.printsize || keep.has(info.name)) return;
    const at = last[r]!;
    let list = out.get(at);
    if (!list) out.set(at, (list = []));
    list.push(r);
  });
  return out;
}

const neededCache = new WeakMap<RuleProgram, Set<number>>();

/**
 * Ids of the relations the outputs depend on: the `.output` and `.printsize` relations and,
 * transitively, every relation a rule deriving a needed relation reads.
 */
export function neededRelations(program: RuleProgram): Set<number> {
  const hit = neededCache.get(program);
  if (hit) return hit;
  const needed = dependedOn(
    program,
    program.relations.filter((r) => r.output || r.printsize).map((r) => r.id),
  );
  neededCache.set(program, needed);
  return needed;
}

/** As neededRelations, from the relations named in `keep` (undeclared names ignored) and the `.printsize` ones. */
function neededFor(program: RuleProgram, keep: ReadonlySet<string>): Set<number> {
  const key = [...keep].sort().join('\0');
  const hit = program.memo(NEEDED_BY_KEEP).get(key);
  if (hit) return hit;
  const roots = program.relations.filter((r) => r.printsize || keep.has(r.name)).map((r) => r.id);
  const needed = dependedOn(program, roots);
  program.memo(NEEDED_BY_KEEP).set(key, needed);
  return needed;
}

/** Ids of the relations `roots` and, transitively, every relation a rule deriving one of them reads. */
function dependedOn(program: RuleProgram, roots: number[]): Set<number> {
  const edges = program.edges;
  const reads = new Map<number, number[]>();
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i]!;
    let list = reads.get(e.from);
    if (!list) reads.set(e.from, (list = []));
    list.push(e.to);
  }
  const needed = new Set<number>();
  const stack = roots;
  while (stack.length > 0) {
    const r = stack.pop()!;
    if (needed.has(r) || r < 0) continue;
    needed.add(r);
    for (const to of reads.get(r) ?? []) stack.push(to);
  }
  return needed;
}
