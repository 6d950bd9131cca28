// Compiles a join plan to a specialised JavaScript function (typed-array loops, no per-tuple
// allocation). The nesting depth of the generated code is the plan's length, not the data size.
import type { FunctorRuntime } from '../check/functors.js';
import type { Expr, Plan, Step } from '../plan/plan.js';
import type { Index } from '../storage/column-index.js';
import type { Relation } from '../storage/relation.js';
import type { MemoSet } from './memo.js';

/**
 * A compiled plan: R/X per access, B = [lo, hi] per access, S scratch per access, T head scratch,
 * F the functors over the symbol table (`F.str` its strings, `F.num` the 64-bit arithmetic: `N`),
 * M where the aggregates' memos come from (the caller frees them when the run ends), C the clock
 * every scan loop ticks (a join of one rule can run for minutes: the deadline is checked inside).
 */
export type CompiledPlan = (
  R: readonly Relation[],
  X: readonly (Index | null)[],
  B: Int32Array,
  S: readonly Float64Array[],
  T: Float64Array,
  OUT: Relation,
  H: number,
  F: FunctorRuntime,
  M: MemoSet,
  C: Clock,
) => void;

/** The parameters of every compiled plan, as compilePlan's `new Function` names them. */
export const PLAN_PARAMS = ['R', 'X', 'B', 'S', 'T', 'OUT', 'H', 'F', 'M', 'C'] as const;

/** Functions compiled before (prebuilt-plans.ts): the one whose body is exactly `code`, if any. */
export interface PlanTable {
  get(code: string): CompiledPlan | undefined;
}

/** Counts loop iterations down; at zero, `poll` runs (it checks the deadline and may throw, or sets `n` again). */
export interface Clock {
  n: number;
  poll(): void;
}

interface Gen {
  temps: number;
  /** How deep exprCode recurses now: every SPILL levels a value goes to a temporary (V8's parser limits nesting). */
  depth: number;
  /** The per-run memos of the plan's aggregates: their names and key widths. */
  memos: { name: string; width: number }[];
  /**
   * The string constants the plan compares with (`Y0`, `Y1`, ...): their ids are looked up when
   * the function runs, not written into its code, so one program's plan compiles to the same code
   * for every database (each file's symbol table numbers its strings differently).
   */
  syms: string[];
}

/** A value computed before the code that uses it, which runs only when `ok` holds of it. */
interface Pre {
  name: string;
  code: string;
  /** The condition on `name` (division: non-zero divisor; to_number: a value). */
  ok: string;
}

/** JS code of the string of a symbol-valued expression (functor results are not interned). */
function strCode(e: Expr, pre: Pre[], g: Gen): string {
  if (e.k === 'const' && e.s !== undefined) return JSON.stringify(e.s);
  if (e.k === 'call') {
    switch (e.fn) {
      case 'cat':
        return `(${e.args.map((a) => strCode(a, pre, g)).join(' + ')})`;
      case 'to_string':
        return `N.str(${exprCode(e.args[0]!, pre, g)})`;
      case 'substr':
        return `F.substr(${strCode(e.args[0]!, pre, g)}, ${exprCode(e.args[1]!, pre, g)}, ${exprCode(e.args[2]!, pre, g)})`;
      default:
        break;
    }
  }
  return `STR[${exprCode(e, pre, g)}]`;
}

/** JS code of the value (symbol id or number) of a functor call. */
function callCode(e: Expr & { k: 'call' }, pre: Pre[], g: Gen): string {
  switch (e.fn) {
    case 'cat':
    case 'to_string':
    case 'substr':
      return `F.id(${strCode(e, pre, g)})`;
    case 'strlen':
      return `F.strlen(${strCode(e.args[0]!, pre, g)})`;
    case 'to_number': {
      const arg = strCode(e.args[0]!, pre, g);
      const name = `g${g.temps++}`;
      pre.push({ name, code: `F.toNumber(${arg})`, ok: `${name} !== null` });
      return name;
    }
    case 'min':
    case 'max':
      return e.args.map((a) => exprCode(a, pre, g)).reduce((acc, a) => `N.${e.fn}(${acc}, ${a})`);
  }
}

/** True for a functor call whose value is a new symbol (cat, to_string, substr). */
function makesSymbol(e: Expr): boolean {
  return e.k === 'call' && (e.fn === 'cat' || e.fn === 'to_string' || e.fn === 'substr');
}

/**
 * JS code of a value used only to look tuples up: a symbol built by a functor is not interned
 * (F.key gives -1, which matches no tuple, when the string was never seen).
 */
function keyCode(e: Expr, pre: Pre[], g: Gen): string {
  return makesSymbol(e) ? `F.key(${strCode(e, pre, g)})` : exprCode(e, pre, g);
}

const SPILL = 32;

/** The clock's tick at the top of every scan loop's body. */
const TICK = 'if (--C.n < 0) C.poll();\n';

function exprCode(e: Expr, pre: Pre[], g: Gen): string {
  if (e.k !== 'bin' && e.k !== 'neg') return exprCodeAt(e, pre, g);
  g.depth++;
  try {
    const code = exprCodeAt(e, pre, g);
    if (g.depth % SPILL !== 0) return code;
    const name = `g${g.temps++}`;
    pre.push({ name, code, ok: 'true' });
    return name;
  } finally {
    g.depth--;
  }
}

function exprCodeAt(e: Expr, pre: Pre[], g: Gen): string {
  switch (e.k) {
    case 'slot':
      return `v${e.s}`;
    case 'const': {
      if (e.s === undefined) return Object.is(e.v, -0) ? '0' : String(e.v);
      let i = g.syms.indexOf(e.s);
      if (i < 0) i = g.syms.push(e.s) - 1;
      return `Y${i}`;
    }
    case 'call':
      return callCode(e, pre, g);
    case 'neg':
      return `N.neg(${exprCode(e.a, pre, g)})`;
    case 'bin': {
      const l = exprCode(e.l, pre, g);
      const r = exprCode(e.r, pre, g);
      switch (e.op) {
        case '+':
          return `N.add(${l}, ${r})`;
        case '-':
          return `N.sub(${l}, ${r})`;
        case '*':
          return `N.mul(${l}, ${r})`;
        default: {
          // Division and remainder give null for a zero divisor: the rule instance derives nothing.
          const name = `g${g.temps++}`;
          pre.push({ name, code: `N.${e.op === '/' ? 'div' : 'mod'}(${l}, ${r})`, ok: `${name} !== null` });
          return name;
        }
      }
    }
  }
}

/** Wraps `inner` so that it runs only when every value in `pre` is defined (no division by zero...). */
function guarded(pre: Pre[], inner: string): string {
  let out = inner;
  for (let i = pre.length - 1; i >= 0; i--) {
    const p = pre[i]!;
    out = `{ const ${p.name} = ${p.code}; if (${p.ok}) {\n${out}\n} }`;
  }
  return out;
}

const CMP: Record<string, string> = { '=': '===', '!=': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/** The JS condition of a filter step. */
function filterCode(step: Step & { op: 'filter' }, pre: Pre[], g: Gen): string {
  if (step.cmp === 'contains' || step.cmp === '!contains') {
    const sub = strCode(step.l, pre, g);
    const s = strCode(step.r, pre, g);
    return `${step.cmp === '!contains' ? '!' : ''}${s}.includes(${sub})`;
  }
  if (step.cmp === 'match' || step.cmp === '!match') {
    return `${step.cmp === '!match' ? '!' : ''}F.match(${strCode(step.l, pre, g)}, ${strCode(step.r, pre, g)})`;
  }
  if ((step.cmp === '=' || step.cmp === '!=') && (makesSymbol(step.l) || makesSymbol(step.r))) {
    // Compare the strings: a built symbol that matches nothing is never interned.
    return `${strCode(step.l, pre, g)} ${CMP[step.cmp]} ${strCode(step.r, pre, g)}`;
  }
  const l = exprCode(step.l, pre, g);
  const r = exprCode(step.r, pre, g);
  switch (step.cmp) {
    case '<':
      return `N.lt(${l}, ${r})`;
    case '<=':
      return `N.le(${l}, ${r})`;
    case '>':
      return `N.lt(${r}, ${l})`;
    case '>=':
      return `N.le(${r}, ${l})`;
    default:
      return `${l} ${CMP[step.cmp]} ${r}`;
  }
}

function genSteps(steps: readonly Step[], i: number, leaf: () => string, arity: (k: number) => number, g: Gen): string {
  if (i === steps.length) return leaf();
  const step = steps[i]!;
  const rest = (): string => genSteps(steps, i + 1, leaf, arity, g);
  switch (step.op) {
    case 'filter': {
      const pre: Pre[] = [];
      return guarded(pre, `if (${filterCode(step, pre, g)}) {\n${rest()}\n}`);
    }
    case 'assign': {
      const pre: Pre[] = [];
      const e = exprCode(step.e, pre, g);
      return guarded(pre, `{ const v${step.slot} = ${e};\n${rest()}\n}`);
    }
    case 'neg': {
      const k = step.k;
      const pre: Pre[] = [];
      const keys = step.args.flatMap((a) => (a ? [keyCode(a, pre, g)] : []));
      let cond: string;
      if (keys.length === 0) cond = `R${k}.count === 0`;
      else if (keys.length === step.args.length) {
        cond = `(${keys.map((c, j) => `S${k}[${j}] = ${c}`).join(', ')}, !R${k}.has(S${k}))`;
      } else if (keys.length === 1) cond = `X${k}.find1(${keys[0]}) === -1`;
      else if (keys.length === 2) cond = `X${k}.find2(${keys[0]}, ${keys[1]}) === -1`;
      else cond = `(${keys.map((c, j) => `S${k}[${j}] = ${c}`).join(', ')}, X${k}.findN(S${k}) === -1)`;
      return guarded(pre, `if (${cond}) {\n${rest()}\n}`);
    }
    case 'agg': {
      const acc = `a${g.temps++}`;
      const found = `f${g.temps++}`;
      let update: string;
      const pre: Pre[] = [];
      const t = step.target ? exprCode(step.target, pre, g) : '';
      switch (step.aggOp) {
        case 'count':
          update = `${acc} = ${acc} + 1;`;
          break;
        case 'sum':
          update = `${acc} = N.add(${acc}, ${t});`;
          break;
        case 'min':
          update = `{ const x = ${t}; if (${found} === 0 || N.lt(x, ${acc})) ${acc} = x; ${found} = 1; }`;
          break;
        case 'max':
          update = `{ const x = ${t}; if (${found} === 0 || N.lt(${acc}, x)) ${acc} = x; ${found} = 1; }`;
          break;
      }
      const body = genSteps(step.body, 0, () => guarded(pre, update), arity, g);
      const always = step.aggOp === 'count' || step.aggOp === 'sum';
      // The aggregate's value depends only on the outer variables it reads (its key), and the
      // relations it reads are complete (a lower stratum): it is computed once per distinct key
      // and remembered for this run of the plan. `r(W, N) :- p(W, _, _), N = min M : {q(W, M)}`
      // thus costs one aggregate per distinct W, not one per p tuple (and one with no key, once).
      // The memo lives in arrays of the arena, freed when the run ends (memo.ts).
      const memo = `m${g.temps++}`;
      const ks = step.keySlots;
      g.memos.push({ name: memo, width: Math.max(1, ks.length) });
      const at =
        ks.length === 0
          ? `${memo}.at1(0)`
          : ks.length === 1
            ? `${memo}.at1(v${ks[0]})`
            : ks.length === 2
              ? `${memo}.at2(v${ks[0]}, v${ks[1]})`
              : `(${ks.map((s, j) => `${memo}.q[${j}] = v${s}`).join(', ')}, ${memo}.atN())`;
      const slot = `c${g.temps++}`;
      const st = `c${g.temps++}`;
      return `{ let ${acc} = 0; let ${found} = 0; const ${slot} = ${at}; const ${st} = ${memo}.state(${slot});
if (${st} === 0) {\n${body}\n${memo}.put(${slot}, ${acc}, ${always ? '1' : found}); } else if (${st} === 1) { ${acc} = ${memo}.value(${slot}); ${found} = 1; }
if (${always ? 'true' : `${found} === 1`}) { const v${step.slot} = ${acc};\n${rest()}\n} }`;
    }
    case 'scan': {
      const k = step.k;
      const a = arity(k);
      const pre: Pre[] = [];
      const keys = step.cols.map((c) => (c.t === 'key' ? keyCode(c.e, pre, g) : ''));
      const binds: string[] = [];
      const checks: string[] = [];
      step.cols.forEach((c, col) => {
        if (c.t === 'bind') binds.push(`const v${c.slot} = D${k}[b${k} + ${col}];`);
        else if (c.t === 'check') checks.push(`if (D${k}[b${k} + ${col}] !== v${c.slot}) continue;`);
      });
      const bounded = step.version !== 'all';
      const keyCount = step.keyCols.length;
      if (keyCount === a && a > 0) {
        const fill = step.keyCols.map((col, j) => `S${k}[${j}] = ${keys[col]};`).join(' ');
        // Membership alone (a bitmap may answer) unless the row must lie in the access's bounds.
        if (!bounded) return guarded(pre, `${fill}\nif (R${k}.has(S${k})) {\n${rest()}\n}`);
        const cond = ` && r${k} >= B[${2 * k}] && r${k} < B[${2 * k + 1}]`;
        return guarded(pre, `${fill}\n{ const r${k} = R${k}.find(S${k}); if (r${k} !== -1${cond}) {\n${rest()}\n} }`);
      }
      if (keyCount > 0 && step.version !== 'delta') {
        const kv = step.keyCols.map((col) => keys[col]!);
        let first: string;
        let fill = '';
        if (keyCount === 1) first = `X${k}.find1(${kv[0]})`;
        else if (keyCount === 2) first = `X${k}.find2(${kv[0]}, ${kv[1]})`;
        else {
          fill = kv.map((c, j) => `S${k}[${j}] = ${c};`).join(' ');
          first = `X${k}.findN(S${k})`;
        }
        const skip = bounded ? `if (r${k} >= hi${k}) continue;\n` : '';
        const hiDecl = bounded ? `const hi${k} = B[${2 * k + 1}]; ` : '';
        const loop = `${fill}\n{ ${hiDecl}for (let r${k} = ${first}; r${k} !== -1; r${k} = U${k} ? -1 : N${k}[r${k}]) {\n${TICK}${skip}const b${k} = r${k} * ${a};\n${binds.join('\n')}\n${checks.join('\n')}\n${rest()}\n} }`;
        return guarded(pre, loop);
      }
      // Range scan with equality checks on constant/bound columns.
      const keyChecks = step.cols.flatMap((c, col) => (c.t === 'key' ? [`if (D${k}[b${k} + ${col}] !== q${k}_${col}) continue;`] : []));
      const keyDecls = step.cols.flatMap((c, col) => (c.t === 'key' ? [`const q${k}_${col} = ${keys[col]};`] : []));
      const loop = `${keyDecls.join(' ')}\nfor (let r${k} = B[${2 * k}], e${k} = B[${2 * k + 1}]; r${k} < e${k}; r${k}++) {\n${TICK}const b${k} = r${k} * ${a};\n${keyChecks.join('\n')}\n${binds.join('\n')}\n${checks.join('\n')}\n${rest()}\n}`;
      return guarded(pre, loop);
    }
  }
}

/**
 * Generates the JavaScript function of a plan, or reuses the one `cache` (the program's memo)
 * holds for the same code, else the one `prebuilt` holds of exactly that code (compiled with the build).
 */
export function compilePlan(plan: Plan, cache: Map<string, CompiledPlan>, prebuilt?: PlanTable): CompiledPlan {
  const g: Gen = { temps: 0, depth: 0, memos: [], syms: [] };
  const arity = (k: number): number => plan.accesses[k]!.arity;
  const leaf = (): string => {
    if (!plan.head) return '';
    const pre: Pre[] = [];
    const vals = plan.head.map((e) => exprCode(e, pre, g));
    // A head of two columns: no tuple array (see Relation.add2).
    if (vals.length === 2) return guarded(pre, `OUT.add2(${vals[0]}, ${vals[1]}, H);`);
    return guarded(pre, `${vals.map((c, j) => `T[${j}] = ${c};`).join(' ')}\nOUT.add(T, H);`);
  };
  const body = genSteps(plan.steps, 0, leaf, arity, g);
  // Every index is brought up to date before any `next` array is captured: two accesses may
  // share one index, and a later ensure() may replace the array an earlier one captured.
  const ensures = plan.accesses.flatMap((acc, k) => (acc.keyCols ? [`X[${k}].ensure(B[${2 * k + 1}]);`] : []));
  const captures = plan.accesses.map((acc, k) => {
    const line = `const R${k} = R[${k}]; const D${k} = R${k}.data; const S${k} = S[${k}];`;
    return acc.keyCols ? `${line} const X${k} = X[${k}]; const N${k} = X${k}.next; const U${k} = X${k}.single;` : line;
  });
  const memos = g.memos.map((m) => `const ${m.name} = M.make(${m.width});`);
  const syms = g.syms.map((t, i) => `const Y${i} = F.id(${JSON.stringify(t)});`);
  const prologue = [...ensures, ...captures, ...memos, 'const STR = F.str;', 'const N = F.num;', ...syms].join('\n');
  const code = `"use strict";\n${prologue}\n${body}`;
  let fn = cache.get(code);
  if (!fn) {
    if (cache.size > 5000) cache.clear();
    fn = prebuilt?.get(code) ?? (new Function(...PLAN_PARAMS, code) as CompiledPlan);
    cache.set(code, fn);
  }
  return fn;
}
