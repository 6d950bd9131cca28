// Provenance: minimal-height proof trees for derived tuples (premises are searched among tuples
// of smaller height, Soufflé's approach) and why-not explanations for absent tuples.
import type { Location } from '../../report/diagnostic.js';
import { functorRuntime } from '../check/functors.js';
import { boundVars, freeVars } from '../check/ground.js';
import type { ProgramClause, RelationInfo, RuleProgram } from '../check/program.js';
import { buildPlan, type Plan } from '../plan/plan.js';
import type { Relation } from '../storage/relation.js';
import type { SymbolTable } from '../storage/symbols.js';
import { type Kind, type Literal, operands, type Term, type Value } from '../syntax/ast.js';
import { evalExpr, interpret } from './interpret.js';

/** The clause of each row that comes from a fact written in the rule files. */
export interface FactRowClauses {
  /** The id of the fact clause that added row `row` of relation `rel`, or undefined. */
  clauseOf(rel: number, row: number): number | undefined;
}

/**
 * What provenance reads of a finished evaluation (exec/result.ts's EvalResult is one): declared
 * here so that provenance depends on no evaluator, and the result can offer its queries.
 */
export interface Evaluated {
  readonly program: RuleProgram;
  /** Storage per relation id; each row's height is the iteration that first derived it. */
  readonly storage: readonly Relation[];
  readonly symbols: SymbolTable;
  /** Rows that come from facts written in the rule files, and their clauses. */
  readonly factRows: FactRowClauses;
  /** Number of leading rows of each relation that are input facts from the database. */
  readonly inputCounts: readonly number[];
  /** The decoded tuple at `row` of relation `id`. */
  rowValues(id: number, row: number): Value[];
  /** The decoded value of column kind `k`. */
  decode(k: Kind, v: number): Value;
}

/** Where a rule is written, and its text on one line. */
export interface RuleRef {
  path: string;
  line: number;
  text: string;
}

export type Premise =
  | { kind: 'atom'; proof: Proof }
  | { kind: 'absent'; relation: string; tuple: (Value | null)[] }
  | { kind: 'aggregate'; text: string; value: Value }
  | { kind: 'constraint'; text: string };

/** A proof of one tuple: an input fact, a fact written in a rule file, or a rule instance. */
export interface Proof {
  relation: string;
  tuple: Value[];
  /** Derivation height: 0 for facts, else the iteration that first derived the tuple. */
  height: number;
  kind: 'input' | 'fact' | 'rule';
  rule?: RuleRef;
  /** Id of the program clause used (RuleProgram.clauses), for kinds 'fact' and 'rule'. */
  clauseId?: number;
  /** Values of the rule's variables in this instance (kind 'rule'). */
  substitution?: Array<[string, Value]>;
  premises: Premise[];
}

/** One rule that could produce an absent tuple and the first part of it that fails. */
export interface WhyNot {
  rule: RuleRef;
  /** The failing literal as written, or null when the head cannot produce the tuple at all. */
  literal: string | null;
  loc: Location;
  reason: string;
  /** Values the head gives to the rule's variables. */
  bindings: Array<[string, Value]>;
}

const MAX_INSTANCES = 100_000;

function oneLine(loc: Location): string {
  return loc.source.text.slice(loc.start, loc.end).replace(/\s+/g, ' ').trim();
}

/** The source reference of a clause. */
export function ruleRef(pc: ProgramClause): RuleRef {
  const loc = pc.clause.loc;
  return { path: loc.source.path, line: loc.source.position(loc.start).line, text: oneLine(loc) };
}

interface HeadQuery {
  plan: Plan;
  /** Number of prebound slots (the first slots, one per head position in order given by `from`). */
  from: number[];
}

const planCache = new WeakMap<Evaluated, Map<string, HeadQuery>>();

/** A plan of the clause body (plus `extra` literals) with the head positions prebound. */
function headQuery(
  res: Evaluated,
  pc: ProgramClause,
  body: readonly Literal[],
  key: string,
  free: ReadonlySet<number> = NONE_FREE,
): HeadQuery {
  let cache = planCache.get(res);
  if (!cache) planCache.set(res, (cache = new Map()));
  if (free.size > 0) key = `${key}|${[...free].join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const prebound: string[] = [];
  const from: number[] = [];
  const extra: Literal[] = [];
  const seen = new Set<string>();
  const headVars = new Set(pc.clause.head.args.flatMap((a, i) => (a.kind === 'var' && !free.has(i) ? [a.name] : [])));
  // Variables a head expression needs (`S` of `S + 1`) may be bound only by body literals not
  // in `body` yet (why-not adds them one by one): such a head column is compared later.
  const bound = boundVars(body, headVars);
  pc.clause.head.args.forEach((a, i) => {
    if (free.has(i)) return; // a wildcard column: any value (the body binds its variable)
    if (a.kind === 'var' && !seen.has(a.name)) {
      seen.add(a.name);
      prebound.push(a.name);
    } else {
      const v: Term = { kind: 'var', name: `$h${i}`, loc: a.loc };
      prebound.push(`$h${i}`);
      if ([...freeVars(a)].every((x) => bound.has(x))) extra.push({ kind: 'cmp', op: '=', left: v, right: a, loc: a.loc });
    }
    from.push(i);
  });
  const plan = buildPlan({
    body: [...body, ...extra],
    head: null,
    relId: (n) => res.program.byName.get(n)!.id,
    arity: (r) => res.storage[r]!.arity,
    size: (r) => res.storage[r]!.count,
    recursive: new Set(),
    delta: -1,
    symbols: res.symbols,
    prebound,
  });
  const q = { plan, from };
  cache.set(key, q);
  return q;
}

function initialSlots(q: HeadQuery, tuple: ArrayLike<number>): Float64Array {
  const slots = new Float64Array(Math.max(1, q.plan.slotNames.length));
  q.from.forEach((pos, s) => (slots[s] = tuple[pos]!));
  return slots;
}

/** Explains row `row` of relation `relId` (iteratively: proofs may be as deep as the data). */
export function explainTuple(res: Evaluated, relId: number, row: number): Proof {
  const memo = new Map<string, Proof>();
  const work: Array<{ proof: Proof; rel: number; row: number }> = [];
  const node = (rel: number, r: number): Proof => {
    const key = `${rel}:${r}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const info = res.program.relations[rel]!;
    const storage = res.storage[rel]!;
    const proof: Proof = { relation: info.name, tuple: res.rowValues(rel, r), height: storage.heightOf(r), kind: 'rule', premises: [] };
    const factClause = res.factRows.clauseOf(rel, r);
    if (r < res.inputCounts[rel]!) proof.kind = 'input';
    else if (factClause !== undefined) {
      proof.kind = 'fact';
      proof.rule = ruleRef(res.program.clauses[factClause]!);
      proof.clauseId = factClause;
    } else work.push({ proof, rel, row: r });
    memo.set(key, proof);
    return proof;
  };
  const root = node(relId, row);
  while (work.length > 0) {
    const { proof, rel, row: r } = work.pop()!;
    expand(res, proof, rel, r, node);
  }
  return root;
}

function expand(res: Evaluated, proof: Proof, rel: number, row: number, node: (rel: number, row: number) => Proof): void {
  const storage = res.storage[rel]!;
  const h = storage.heightOf(row);
  const tuple = storage.data.subarray(row * storage.arity, row * storage.arity + storage.arity);
  let best: { pc: ProgramClause; q: HeadQuery; slots: Float64Array; rows: Int32Array; max: number } | null = null;
  for (const pc of res.program.clauses) {
    if (pc.head !== rel || pc.clause.isFact) continue;
    const q = headQuery(res, pc, pc.clause.body, `e${pc.id}`);
    const topScans = q.plan.steps.flatMap((s) => (s.op === 'scan' ? [s.k] : []));
    const rels = q.plan.accesses.map((a) => res.storage[a.rel]!);
    let n = 0;
    interpret(q.plan, {
      rels,
      fns: functorRuntime(res.symbols),
      slots: initialSlots(q, tuple),
      rowOk: (k, r) => rels[k]!.heightOf(r) < h,
      onMatch: (slots, rows) => {
        let max = 0;
        for (const k of topScans) max = Math.max(max, rels[k]!.heightOf(rows[k]!));
        if (!best || max < best.max) best = { pc, q, slots: slots.slice(), rows: rows.slice(), max };
        return ++n < MAX_INSTANCES && max > 0;
      },
    });
  }
  if (!best) return;
  const b: { pc: ProgramClause; q: HeadQuery; slots: Float64Array; rows: Int32Array } = best;
  proof.rule = ruleRef(b.pc);
  proof.clauseId = b.pc.id;
  const kinds = b.pc.varKinds;
  const decodeSlot = (name: string, v: number): Value => res.decode(kinds.get(name) ?? 'number', v);
  const order = varOrder(b.pc);
  proof.substitution = b.q.plan.slotNames
    .flatMap((name, s) => (name.startsWith('$') || name.includes('@') ? [] : [[name, decodeSlot(name, b.slots[s]!)] as [string, Value]]))
    .sort((x, y) => (order.get(x[0]) ?? 1e9) - (order.get(y[0]) ?? 1e9));
  const stepOf = new Map<Literal, (typeof b.q.plan.steps)[number]>();
  for (const s of b.q.plan.steps) if (s.op !== 'agg' && s.lit) stepOf.set(s.lit, s);
  const aggSteps = b.q.plan.steps.flatMap((s) => (s.op === 'agg' ? [s] : []));
  for (const l of b.pc.clause.body) {
    const s = stepOf.get(l);
    if (l.kind === 'atom' && s?.op === 'scan') {
      proof.premises.push({ kind: 'atom', proof: node(s.rel, b.rows[s.k]!) });
    } else if (l.kind === 'neg' && s?.op === 'neg') {
      const info = res.program.relations[s.rel]!;
      const tuple = s.args.map((a, c) => (a ? res.decode(info.kinds[c]!, evalExpr(a, b.slots, functorRuntime(res.symbols))!) : null));
      proof.premises.push({ kind: 'absent', relation: info.name, tuple });
    } else if (l.kind === 'cmp') {
      const agg = aggSteps.find((a) => a.term.loc.start >= l.loc.start && a.term.loc.end <= l.loc.end);
      if (agg) proof.premises.push({ kind: 'aggregate', text: oneLine(l.loc), value: b.slots[agg.slot]! });
      else proof.premises.push({ kind: 'constraint', text: oneLine(l.loc) });
    }
  }
}

const NONE_FREE: ReadonlySet<number> = new Set();

/**
 * Why `tuple` is not in relation `info`: for each rule deriving it, the first failing literal.
 * A null column is a wildcard (`_`): no tuple with the other columns' values is derived.
 */
export function whyNotTuple(res: Evaluated, info: RelationInfo, tuple: readonly (Value | null)[]): WhyNot[] {
  const out: WhyNot[] = [];
  const enc = new Float64Array(Math.max(1, tuple.length));
  const free = new Set<number>();
  tuple.forEach((v, i) => {
    if (v === null) free.add(i);
    else enc[i] = typeof v === 'string' ? res.symbols.intern(v) : res.symbols.numbers.encode(v);
  });
  for (const pc of res.program.clauses) {
    if (pc.head !== info.id) continue;
    const head = pc.clause.head;
    if (pc.clause.isFact) continue;
    // The head itself: constants and repeated variables.
    const firstPos = new Map<string, number>();
    let headFail: string | null = null;
    head.args.forEach((a, i) => {
      if (headFail || free.has(i)) return;
      if (a.kind === 'var') {
        const p = firstPos.get(a.name);
        if (p === undefined) firstPos.set(a.name, i);
        else if (enc[p] !== enc[i])
          headFail = `the head repeats \`${a.name}\` but the tuple has different values in columns ${p + 1} and ${i + 1}`;
      } else if (
        (a.kind === 'num' || a.kind === 'str') &&
        (a.kind === 'num' ? res.symbols.numbers.fromBig(a.value) : res.symbols.intern(a.value)) !== enc[i]
      ) {
        headFail = `the head has the constant ${oneLine(a.loc)} in column ${i + 1}`;
      }
    });
    const bindings: Array<[string, Value]> = [...firstPos].map(([v, i]) => [v, tuple[i] as Value]);
    if (headFail) {
      out.push({ rule: ruleRef(pc), literal: null, loc: head.loc, reason: headFail, bindings });
      continue;
    }
    const prebound = new Set(firstPos.keys());
    const included: Literal[] = [];
    const deferred: Literal[] = [];
    let failure: { lit: Literal; reason: string } | null = null;
    const ready = (l: Literal, lits: readonly Literal[]): boolean => {
      if (l.kind === 'atom') return true;
      const bound = boundVars(lits, prebound);
      const terms = l.kind === 'cmp' ? [l.left, l.right] : l.atom.args;
      if (l.kind === 'cmp' && l.op === '=') {
        const lf = [...freeVars(l.left)].every((v) => bound.has(v));
        const rf = [...freeVars(l.right)].every((v) => bound.has(v));
        return (lf && rf) || (lf && l.right.kind === 'var') || (rf && l.left.kind === 'var');
      }
      return terms.every((t) => [...freeVars(t)].every((v) => bound.has(v)));
    };
    const satisfiable = (lits: readonly Literal[]): boolean => {
      const q = headQuery(res, pc, lits, `w${pc.id}:${lits.length}:${lits.map((l) => l.loc.start).join(',')}`, free);
      let found = false;
      interpret(q.plan, {
        rels: q.plan.accesses.map((a) => res.storage[a.rel]!),
        fns: functorRuntime(res.symbols),
        slots: initialSlots(q, enc),
        onMatch: () => {
          found = true;
          return false;
        },
      });
      return found;
    };
    const attempt = (l: Literal): boolean => {
      if (!satisfiable([...included, l])) {
        failure = { lit: l, reason: reasonFor(l) };
        return false;
      }
      included.push(l);
      return true;
    };
    for (const l of pc.clause.body) {
      if (failure) break;
      if (!ready(l, [...included, l])) {
        deferred.push(l);
        continue;
      }
      if (!attempt(l)) break;
      for (let j = 0; j < deferred.length && !failure; j++) {
        const d = deferred[j]!;
        if (!ready(d, [...included, d])) continue;
        deferred.splice(j--, 1);
        attempt(d);
      }
    }
    const f = failure as { lit: Literal; reason: string } | null;
    if (f) out.push({ rule: ruleRef(pc), literal: oneLine(f.lit.loc), loc: f.lit.loc, reason: f.reason, bindings });
    else if (!satisfiable(pc.clause.body)) {
      out.push({
        rule: ruleRef(pc),
        literal: null,
        loc: head.loc,
        reason: 'no body instance makes the head expressions equal to the tuple',
        bindings,
      });
    } else {
      out.push({ rule: ruleRef(pc), literal: null, loc: head.loc, reason: 'every literal holds: this rule derives the tuple', bindings });
    }
  }
  return out;
}

/** Position of the first occurrence of each variable in the clause text. */
function varOrder(pc: ProgramClause): Map<string, number> {
  const order = new Map<string, number>();
  const visit = (t: Term): void => {
    if (t.kind === 'var') {
      const prev = order.get(t.name);
      if (prev === undefined || t.loc.start < prev) order.set(t.name, t.loc.start);
    } else if (t.kind === 'agg') {
      if (t.target) visit(t.target);
      for (const l of t.body) (l.kind === 'cmp' ? [l.left, l.right] : l.atom.args).forEach(visit);
    } else operands(t).forEach(visit);
  };
  pc.clause.head.args.forEach(visit);
  for (const l of pc.clause.body) (l.kind === 'cmp' ? [l.left, l.right] : l.atom.args).forEach(visit);
  return order;
}

function reasonFor(l: Literal): string {
  switch (l.kind) {
    case 'atom':
      return `no tuple of ${l.atom.rel} matches, given the head's values and the literals before it`;
    case 'neg':
      return `${l.atom.rel} contains the negated tuple for every binding of the literals before it`;
    case 'cmp':
      if (l.op === 'contains') return 'the first symbol never occurs in the second, for every binding of the literals before it';
      if (l.op === '!contains') return 'the first symbol occurs in the second, for every binding of the literals before it';
      if (l.op === 'match') return 'the pattern matches no symbol it is given, for every binding of the literals before it';
      if (l.op === '!match') return 'the pattern matches the whole symbol, for every binding of the literals before it';
      return 'the comparison is false for every binding of the literals before it';
  }
}
