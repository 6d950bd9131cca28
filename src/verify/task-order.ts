/**
 * The independent oracle for ExpandManualPhaseFence: an interpreter of Orchestration functions
 * that launches tasks and records, for each real launch (a Submit, a `pl.at` / `pl.spmd` launch
 * scope), the tasks it happens after — through dependency-only barriers
 * (`pl.system.task_dummy`), which are transparent. It is written from the contract
 * (docs/contracts/expand-manual-phase-fence.md, "What it does") and PyPTO's task semantics,
 * not from rules/expand_manual_phase_fence/, so a rule cannot share a mistake with it.
 *
 * Semantics: an `Array[TASK_ID]` is storage; `arr[i] = v` (`pl.array.update_element`) writes
 * it in place; a loop iter-arg shares its init value's storage; a plain assignment `x = arr`
 * copies (the contract: "a plain assignment is not an alias"). A launch's dependencies are read
 * when it is launched: `deps=[arr]` is every slot of `arr` at that moment. A barrier's captured
 * arrays must not be written between the barrier and a launch that depends on it ("read-only
 * and stable where the pass compresses").
 *
 * The program runs in several worlds (each `if` / `while` condition and unknown trip count
 * decided by the world); the pass's input and output must launch the same real tasks, with the
 * same arguments, each after the same tasks, in every world.
 */
import type { Expr, FunctionDef, Module, Stmt } from '../ir/nodes.js';
import { printExpr } from '../ir/print.js';

/** One real task launch: what it runs, where, and the tasks it happens after. */
export interface Launch {
  line: number;
  /** `self.k(x)` for a Submit; `pl.at(...)` / `pl.spmd(...)` for a launch scope. */
  what: string;
  /** Labels of the real and external tasks it happens after (sorted). */
  after: string[];
  /** A barrier it depends on captured an array written since (the write's line), or null. */
  staleCapture: string | null;
}

interface Store {
  slots: Value[];
  version: number;
  /** Line of the last write, for messages. */
  lastWrite: number;
  name: string;
}
interface Task {
  label: string;
  dummy: boolean;
  /** For a dummy: the labels of the real / external tasks it happens after. */
  reach: Set<string>;
  /** For a dummy: the arrays its deps read, with their version then. */
  captures: { store: Store; version: number }[];
  line: number;
}
type Value = { k: 'int'; v: number } | { k: 'bool'; v: boolean } | { k: 'task'; t: Task } | { k: 'array'; s: Store } | { k: 'unknown' };

const UNKNOWN: Value = { k: 'unknown' };
/** Iterations a `while` loop runs at most, and the cap on a `for` loop's trip count. */
const MAX_WHILE = 3;
const MAX_TRIPS = 8;

/** A world: the value of unknown trip counts and a deterministic stream of branch decisions. */
interface World {
  n: number;
  next(): boolean;
}

function worlds(): World[] {
  const mk = (n: number, seed: number): World => {
    let s = seed;
    return {
      n,
      next: () => {
        if (seed === 0) return true;
        if (seed === 1) return false;
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        return (s >> 16) % 2 === 0;
      },
    };
  };
  return [mk(2, 0), mk(1, 1), mk(3, 7), mk(0, 11), mk(2, 23), mk(1, 42), mk(3, 97), mk(2, 1234)];
}

class Break {}
class Continue {}
class Return {}

class Run {
  readonly launches: Launch[] = [];
  private readonly env = new Map<string, Value>();
  private real = 0;
  constructor(
    private readonly module: Module,
    private readonly world: World,
  ) {}

  private line(node: { start: number }): number {
    return this.module.source.lineOf(node.start);
  }

  private constant(name: string): number | null {
    const v = this.module.constants.get(name);
    return typeof v === 'number' ? v : null;
  }

  bindParams(f: FunctionDef): void {
    for (const p of f.params) {
      const t = p.type;
      if (t?.kind === 'ArrayType') {
        const size = this.intOf(t.size) ?? 4;
        const store: Store = { slots: [], version: 0, lastWrite: 0, name: p.name };
        for (let i = 0; i < Math.min(size, 64); i++) store.slots.push(this.external(`${p.name}[${i}]`));
        this.env.set(p.name, { k: 'array', s: store });
      } else if (t?.kind === 'ScalarType' && t.dtype.kind === 'Enum' && t.dtype.member === 'TASK_ID') {
        this.env.set(p.name, this.external(p.name));
      } else if (t?.kind === 'ScalarType' && t.dtype.kind === 'Enum' && t.dtype.member === 'INDEX') {
        this.env.set(p.name, { k: 'int', v: this.world.n });
      }
    }
  }

  private external(label: string): Value {
    return { k: 'task', t: { label, dummy: false, reach: new Set(), captures: [], line: 0 } };
  }

  private intOf(e: Expr): number | null {
    const v = this.eval(e);
    return v.k === 'int' ? v.v : null;
  }

  /** The real / external tasks a deps list names, the barriers among them, and the arrays it reads. */
  private depsOf(deps: readonly Expr[]): { reach: Set<string>; barriers: Task[]; arrays: Store[] } {
    const reach = new Set<string>();
    const barriers: Task[] = [];
    const arrays: Store[] = [];
    const addTask = (t: Task): void => {
      if (t.dummy) {
        barriers.push(t);
        for (const r of t.reach) reach.add(r);
      } else reach.add(t.label);
    };
    for (const d of deps) {
      const v = this.eval(d);
      if (v.k === 'task') addTask(v.t);
      else if (v.k === 'array') {
        arrays.push(v.s);
        for (const s of v.s.slots) if (s.k === 'task') addTask(s.t);
      } else reach.add(`<${printExpr(d)}>`);
    }
    return { reach, barriers, arrays };
  }

  private launch(what: string, deps: readonly Expr[] | null, line: number): Value {
    const { reach, barriers } = this.depsOf(deps ?? []);
    let staleCapture: string | null = null;
    const seen = new Set<Task>();
    const check = (b: Task): void => {
      if (seen.has(b)) return;
      seen.add(b);
      for (const c of b.captures) {
        if (c.store.version !== c.version && staleCapture === null) {
          staleCapture = `the array '${c.store.name}' read by the barrier at line ${b.line} is written at line ${c.store.lastWrite} before the launch`;
        }
      }
    };
    barriers.forEach(check);
    this.launches.push({ line, what, after: [...reach].sort(), staleCapture });
    // A real task is named by its rank among the function's launches (the same in input and output).
    return { k: 'task', t: { label: `task ${++this.real}`, dummy: false, reach: new Set(), captures: [], line } };
  }

  private dummy(deps: readonly Expr[], line: number): Value {
    const { reach, barriers, arrays } = this.depsOf(deps);
    const captures = arrays.map((s) => ({ store: s, version: s.version }));
    for (const b of barriers) captures.push(...b.captures);
    return { k: 'task', t: { label: `barrier@${line}`, dummy: true, reach, captures, line } };
  }

  eval(e: Expr): Value {
    switch (e.kind) {
      case 'Int':
        return { k: 'int', v: e.value };
      case 'Bool':
        return { k: 'bool', v: e.value };
      case 'Name': {
        const v = this.env.get(e.id);
        if (v !== undefined) return v;
        const c = this.constant(e.id);
        return c === null ? UNKNOWN : { k: 'int', v: c };
      }
      case 'Subscript': {
        const base = this.eval(e.value);
        const i = this.intOf(e.index);
        if (base.k === 'array' && i !== null) return base.s.slots[i] ?? UNKNOWN;
        return UNKNOWN;
      }
      case 'Binary': {
        const l = this.eval(e.left);
        const r = this.eval(e.right);
        if (l.k !== 'int' || r.k !== 'int') return UNKNOWN;
        switch (e.op) {
          case '+':
            return { k: 'int', v: l.v + r.v };
          case '-':
            return { k: 'int', v: l.v - r.v };
          case '*':
            return { k: 'int', v: l.v * r.v };
          default:
            return UNKNOWN;
        }
      }
      case 'Submit': {
        for (const a of e.args) this.eval(a);
        return this.launch(`self.${e.func}(${e.args.map(printExpr).join(', ')})`, e.deps, this.line(e));
      }
      case 'Call': {
        const name = e.callee.kind === 'op' ? e.callee.name : null;
        const deps = e.kwargs.find((k) => k.name === 'deps')?.value;
        if (name === 'system.task_dummy') return this.dummy(deps?.kind === 'List' ? deps.elts : [], this.line(e));
        const args = e.args.map((a) => this.eval(a));
        if (name === 'array.update_element') {
          const arr = args[0];
          const i = args[1];
          if (arr?.k === 'array') {
            if (i?.k === 'int' && i.v >= 0 && i.v < arr.s.slots.length) arr.s.slots[i.v] = args[2] ?? UNKNOWN;
            else arr.s.slots = arr.s.slots.map(() => UNKNOWN);
            arr.s.version++;
            arr.s.lastWrite = this.line(e);
            return arr;
          }
          return UNKNOWN;
        }
        if (name === 'array.create') {
          const size = args[0]?.k === 'int' ? Math.min(args[0].v, 64) : 0;
          return { k: 'array', s: { slots: Array.from({ length: size }, () => UNKNOWN), version: 0, lastWrite: 0, name: 'array.create' } };
        }
        return UNKNOWN;
      }
      default:
        return UNKNOWN;
    }
  }

  private cond(e: Expr): boolean {
    const v = this.eval(e);
    return v.k === 'bool' ? v.v : this.world.next();
  }

  /** A plain assignment copies an array (not an alias); an update writes in place. */
  private bind(name: string, v: Value, copy: boolean): void {
    if (copy && v.k === 'array') {
      this.env.set(name, { k: 'array', s: { ...v.s, slots: [...v.s.slots], version: 0, name } });
    } else this.env.set(name, v);
  }

  body(stmts: readonly Stmt[]): void {
    for (const s of stmts) this.stmt(s);
  }

  private stmt(s: Stmt): void {
    switch (s.kind) {
      case 'Assign': {
        const v = this.eval(s.value);
        const isUpdate = s.value.kind === 'Call' && s.value.callee.kind === 'op' && s.value.callee.name === 'array.update_element';
        if (s.targets.length === 1) this.bind(s.targets[0]!.id, v, !isUpdate);
        else
          s.targets.forEach((t, i) => {
            this.env.set(t.id, s.value.kind === 'Submit' && i === s.targets.length - 1 ? v : UNKNOWN);
          });
        return;
      }
      case 'ExprStmt':
        this.eval(s.value);
        return;
      case 'Return':
        if (s.value) this.eval(s.value);
        throw new Return();
      case 'Break':
        throw new Break();
      case 'Continue':
        throw new Continue();
      case 'If':
        this.body(this.cond(s.cond) ? s.then : s.orelse);
        return;
      case 'While':
        for (let i = 0; i < MAX_WHILE && this.cond(s.cond); i++) if (this.iteration(s.body)) break;
        return;
      case 'For':
        this.loop(s);
        return;
      case 'Scope':
        if (s.scope === 'at' || s.scope === 'spmd') {
          // A launch scope: its body is an outlined kernel, run as one task.
          for (const a of s.args) this.eval(a);
          const v = this.launch(`pl.${s.scope}(${s.args.map(printExpr).join(', ')})`, s.deps, this.line(s));
          if (s.asName) this.env.set(s.asName.id, v);
          return;
        }
        this.body(s.body);
        return;
      default:
        return;
    }
  }

  /** Runs one loop iteration; true when it breaks out of the loop. */
  private iteration(body: readonly Stmt[]): boolean {
    try {
      this.body(body);
    } catch (e) {
      if (e instanceof Break) return true;
      if (e instanceof Continue) return false;
      throw e;
    }
    return false;
  }

  private loop(s: Extract<Stmt, { kind: 'For' }>): void {
    if (s.loopKind === 'spmd' || s.loopKind === 'split_aiv') {
      this.launch(`pl.${s.loopKind}(${s.args.map(printExpr).join(', ')})`, null, this.line(s));
      return;
    }
    // Iter-args share their init value's storage (an in-place loop-carried array).
    s.iterArgs.forEach((a, i) => {
      const init = s.initValues[i];
      this.env.set(a.id, init ? this.eval(init) : UNKNOWN);
    });
    if (s.loopKind === 'while') {
      for (let i = 0; i < MAX_WHILE && (s.cond ? this.cond(s.cond) : false); i++) if (this.iteration(s.body)) break;
      return;
    }
    const [start, stop, step] = s.args.map((a) => this.intOf(a));
    const lo = start ?? 0;
    const st = step && step > 0 ? step : 1;
    const hi = stop ?? lo + this.world.n * st;
    let trips = 0;
    for (let i = lo; i < hi && trips < MAX_TRIPS; i += st, trips++) {
      if (s.target) this.env.set(s.target.id, { k: 'int', v: i });
      if (this.iteration(s.body)) break;
    }
  }
}

/** The real launches of every Orchestration function of `module` in one world, in order (per function). */
function launchesIn(module: Module, world: World): Map<string, Launch[]> {
  const out = new Map<string, Launch[]>();
  for (const p of module.programs) {
    for (const f of p.functions) {
      if (f.funcKind !== 'Orchestration') continue;
      const r = new Run(module, world);
      r.bindParams(f);
      try {
        r.body(f.body);
      } catch (e) {
        if (!(e instanceof Return || e instanceof Break || e instanceof Continue)) throw e;
      }
      out.set(`${p.name}.${f.name}`, r.launches);
    }
  }
  return out;
}

/** A difference between the task order of the pass's input and output; null when there is none. */
export function taskOrderDifference(before: Module, after: Module): string | null {
  const count = worlds().length;
  for (let i = 0; i < count; i++) {
    // Each text runs in a fresh copy of the world (its branch stream is consumed in execution order).
    const a = launchesIn(before, worlds()[i]!);
    const b = launchesIn(after, worlds()[i]!);
    for (const [fn, la] of a) {
      const lb = b.get(fn);
      if (!lb) return `${fn} is not in the pass's output`;
      const where = `in ${fn} (world ${i + 1}: unknown trip counts ${worlds()[i]!.n})`;
      if (la.length !== lb.length) return `${where}: the input launches ${la.length} tasks, the output ${lb.length}`;
      for (let k = 0; k < la.length; k++) {
        const x = la[k]!;
        const y = lb[k]!;
        const name = `task ${k + 1} (input line ${x.line}: ${x.what})`;
        if (x.what !== y.what) return `${where}: ${name} is launched as ${y.what} at line ${y.line} of the output`;
        const same = x.after.length === y.after.length && x.after.every((t, j) => t === y.after[j]);
        if (!same) {
          return `${where}: ${name} happens after {${x.after.join(', ')}} in the input, after {${y.after.join(', ')}} in the output (line ${y.line})`;
        }
        if (y.staleCapture !== null && x.staleCapture === null) return `${where}: ${name} (output line ${y.line}): ${y.staleCapture}`;
      }
    }
  }
  return null;
}
