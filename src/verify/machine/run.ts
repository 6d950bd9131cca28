/**
 * The abstract machine: executes each device kernel (InCore / AIC / AIV) of a module as rank 0,
 * over every path (both branches of each `if`, every number of loop iterations, to a fixpoint),
 * against rank 1, an adversarial peer that may read any window after any notify and may have
 * written any GM tensor before any wait returns. The cache model is docs/memory-model.md.
 *
 * The state is a set of independent facts — `pending(w, dirty|inval)` (write w is not yet in
 * GM), `stale(wait)` (rank 0's cache may be older than GM since that wait) and `reach` — each
 * with the first execution (step list) that produced it, so every race comes with a concrete
 * execution that shows it.
 */
import type { Expr, FunctionDef, Module, Program, Stmt } from '../../ir/nodes.js';
import { forEachSubExpr } from '../../ir/visit.js';
import type { SourceText } from '../../report/source.js';
import { type Effect, effectOf } from './effects.js';
import { type Env, functionEnv } from './env.js';

/** One step of an execution: rank 0 runs a statement of the kernel; rank 1 is the peer. */
export interface Step {
  rank: 0 | 1;
  /** 1-based line of rank 0's statement; absent for the peer's steps. */
  line?: number;
  text: string;
}

/** A stale read the model allows, with an execution that shows it. */
export interface Race {
  /** `publish`: a peer can read a write that is not in GM yet; `consume`: rank 0 reads a cached line older than GM. */
  kind: 'publish' | 'consume';
  program: string;
  func: string;
  /** Line of the write (publish) or of the read (consume) the race is on. */
  line: number;
  message: string;
  steps: Step[];
}

/** Function kinds the machine runs: the device kernels codegen lowers (seed: "the InCore IR this pass sees"). */
export const DEVICE_KINDS: ReadonlySet<string> = new Set(['InCore', 'AIC', 'AIV']);

type Trace = { step: Step; prev: Trace } | null;
type Facts = Map<string, Trace>;

interface WriteInfo {
  line: number;
  what: string;
  /** Root tensor a covering region cacheinvalid names; null when only a whole-GM one covers it. */
  root: string | null;
}

interface Ctx {
  source: SourceText;
  env: Env;
  program: string;
  func: string;
  ids: WeakMap<object, number>;
  nextId: number;
  writes: Map<number, WriteInfo>;
  waits: Map<number, number>;
  races: Map<string, Race>;
}

const REACH = 'reach';

function idOf(ctx: Ctx, node: object): number {
  let id = ctx.ids.get(node);
  if (id === undefined) ctx.ids.set(node, (id = ++ctx.nextId));
  return id;
}

function stepsOf(t: Trace): Step[] {
  const out: Step[] = [];
  for (let c = t; c; c = c.prev) out.push(c.step);
  return out.reverse();
}

const extend = (t: Trace, step: Step): Trace => ({ step, prev: t });

function withStep(f: Facts, step: Step): Facts {
  const g: Facts = new Map();
  for (const [k, t] of f) g.set(k, extend(t, step));
  return g;
}

function merge(into: Facts, from: Facts): void {
  for (const [k, t] of from) if (!into.has(k)) into.set(k, t);
}

function lineOf(ctx: Ctx, node: { start: number }): number {
  return ctx.source.lineOf(node.start);
}

function stmtText(ctx: Ctx, line: number): string {
  return ctx.source.lineText(line).trim();
}

function race(ctx: Ctx, key: string, r: Omit<Race, 'program' | 'func'>): void {
  if (!ctx.races.has(key)) ctx.races.set(key, { program: ctx.program, func: ctx.func, ...r });
}

function nameOf(e: Expr): string {
  return e.kind === 'Name' ? `'${e.id}'` : 'an expression';
}

/** Applies one call's effect to every fact; records the races it exposes. */
function applyEffect(ctx: Ctx, f: Facts, node: object, eff: Effect, line: number): Facts {
  const text = stmtText(ctx, line);
  const here = (note: string): Step => ({ rank: 0, line, text: note ? `${text}    # ${note}` : text });
  const pendingFacts = (): [number, string, Trace][] =>
    [...f].flatMap(([k, t]) => {
      const m = /^p:(\d+):(dirty|inval)$/.exec(k);
      return m ? [[Number(m[1]), m[2]!, t] as [number, string, Trace]] : [];
    });
  switch (eff.kind) {
    case 'local-write':
    case 'remote-write':
    case 'opaque-write': {
      let info: WriteInfo | null;
      if (eff.kind === 'remote-write') info = { line, what: "a peer's window", root: null };
      else if (eff.kind === 'opaque-write') info = { line, what: `global memory (${eff.why})`, root: null };
      else {
        const r = eff.dst.kind === 'Name' ? ctx.env.get(eff.dst.id) : undefined;
        if (r === undefined || r === 'ambiguous')
          info = { line, what: `global memory (destination ${nameOf(eff.dst)} is not one known tensor)`, root: null };
        else if (!r.window) info = null;
        else info = { line, what: `'${r.root}'`, root: r.root };
      }
      const reach = f.get(REACH);
      if (!info || reach === undefined) return withStep(f, here(info ? '' : 'a private tensor: no peer reads it'));
      const w = idOf(ctx, node);
      ctx.writes.set(w, info);
      const stage = eff.kind === 'remote-write' ? 'inval' : 'dirty';
      const note =
        stage === 'inval'
          ? `writes ${info.what}; codegen's peer-region cacheinvalid follows, a fence must publish it`
          : `writes ${info.what}: the data sits in rank 0's cache until a covering cacheinvalid and a fence`;
      const g = withStep(f, here(note));
      if (!g.has(`p:${w}:${stage}`)) g.set(`p:${w}:${stage}`, extend(reach, here(note)));
      return g;
    }
    case 'notify': {
      for (const [w, , t] of pendingFacts()) {
        const info = ctx.writes.get(w)!;
        const steps = [
          ...stepsOf(extend(t, here('signals rank 1'))),
          {
            rank: 1 as const,
            text: `its wait returns; after its whole-GM cacheinvalid it reads ${info.what} from GM: STALE, the write at line ${info.line} is not in GM yet`,
          },
        ];
        race(ctx, `publish:${w}`, {
          kind: 'publish',
          line: info.line,
          steps,
          message: `the write to ${info.what} at line ${info.line} can reach the notify at line ${line} unpublished (no covering cacheinvalid followed by a fence)`,
        });
      }
      return withStep(f, here('signals rank 1'));
    }
    case 'read': {
      const stales = [...f].filter(([k]) => k.startsWith('s:'));
      for (const [k, t] of stales) {
        const waitLine = ctx.waits.get(Number(k.slice(2)))!;
        const steps = [...stepsOf(t), { rank: 0 as const, line, text: `${text}    # reads ${nameOf(eff.src)} through the cache: STALE` }];
        race(ctx, `consume:${idOf(ctx, node)}`, {
          kind: 'consume',
          line,
          steps,
          message: `the read of ${nameOf(eff.src)} at line ${line} can see a cache line older than GM: the wait at line ${waitLine} was not followed by a whole-GM cacheinvalid`,
        });
        break;
      }
      return withStep(f, here(''));
    }
    case 'wait': {
      const reach = f.get(REACH);
      const g = withStep(f, here(''));
      if (reach === undefined) return g;
      const w = idOf(ctx, node);
      ctx.waits.set(w, line);
      const key = `s:${w}`;
      if (!g.has(key)) {
        const peer: Step = {
          rank: 1,
          text: "writes its window data into rank 0's GM, publishes it (cacheinvalid + fence) and notifies rank 0",
        };
        g.set(key, extend(extend(reach, peer), here("returns; rank 0's cached lines may now be older than GM")));
      }
      return g;
    }
    case 'inval-region':
    case 'inval-all':
    case 'fence': {
      const g: Facts = new Map();
      const root = eff.kind === 'inval-region' && eff.target.kind === 'Name' ? ctx.env.get(eff.target.id) : undefined;
      const note =
        eff.kind === 'fence'
          ? 'fence: invalidated writes are now in GM'
          : eff.kind === 'inval-all'
            ? 'whole-GM cacheinvalid: dirty lines written back, cached lines dropped'
            : `region cacheinvalid of ${nameOf(eff.target)}`;
      for (const [k, t] of f) {
        const t2 = extend(t, here(note));
        const m = /^p:(\d+):(dirty|inval)$/.exec(k);
        if (m) {
          const w = Number(m[1]);
          const info = ctx.writes.get(w)!;
          if (m[2] === 'inval') {
            if (eff.kind === 'fence') continue; // published
          } else if (
            eff.kind === 'inval-all' ||
            (eff.kind === 'inval-region' && info.root !== null && root !== undefined && root !== 'ambiguous' && root.root === info.root)
          ) {
            const k2 = `p:${w}:inval`;
            if (!g.has(k2)) g.set(k2, t2);
            continue;
          }
        } else if (k.startsWith('s:') && eff.kind === 'inval-all') continue;
        if (!g.has(k)) g.set(k, t2);
      }
      return g;
    }
    case 'none':
      return f;
  }
}

/** Evaluates the calls of an expression, innermost first (arguments before the call). */
function evalExpr(ctx: Ctx, f: Facts, e: Expr, line: number): Facts {
  let cur = f;
  forEachSubExpr(e, (c) => (cur = evalExpr(ctx, cur, c, line)));
  if (e.kind === 'Call' || e.kind === 'Submit') cur = applyEffect(ctx, cur, e, effectOf(e), lineOf(ctx, e) || line);
  return cur;
}

function exitCheck(ctx: Ctx, f: Facts, line: number): void {
  for (const [k, t] of f) {
    const m = /^p:(\d+):/.exec(k);
    if (!m) continue;
    const w = Number(m[1]);
    const info = ctx.writes.get(w)!;
    const steps = [
      ...stepsOf(extend(t, { rank: 0, line, text: 'the kernel ends' })),
      { rank: 1 as const, text: `(or the next kernel) reads ${info.what} from GM: STALE, the write at line ${info.line} is not in GM yet` },
    ];
    race(ctx, `publish:${w}`, {
      kind: 'publish',
      line: info.line,
      steps,
      message: `the write to ${info.what} at line ${info.line} can reach the end of the kernel unpublished (no covering cacheinvalid followed by a fence)`,
    });
  }
}

function execBody(ctx: Ctx, body: readonly Stmt[], f: Facts): Facts {
  let cur = f;
  for (const s of body) {
    if (cur.size === 0) return cur;
    cur = execStmt(ctx, s, cur);
  }
  return cur;
}

function loop(ctx: Ctx, f: Facts, line: number, head: (g: Facts) => Facts, body: readonly Stmt[]): Facts {
  const text = stmtText(ctx, line);
  const seen = new Set<string>();
  const exits: Facts = new Map();
  let frontier = f;
  for (;;) {
    const fresh: Facts = new Map();
    for (const [k, t] of frontier)
      if (!seen.has(k)) {
        seen.add(k);
        fresh.set(k, t);
      }
    if (fresh.size === 0) break;
    const atHead = head(fresh);
    merge(exits, atHead);
    frontier = execBody(ctx, body, withStep(atHead, { rank: 0, line, text: `${text}    # enters the body` }));
  }
  return withStep(exits, { rank: 0, line, text: `${text}    # leaves the loop` });
}

function execStmt(ctx: Ctx, s: Stmt, f: Facts): Facts {
  const line = lineOf(ctx, s);
  const text = stmtText(ctx, line);
  switch (s.kind) {
    case 'Assign':
    case 'ExprStmt':
      return evalExpr(ctx, f, s.value, line);
    case 'Return': {
      const g = s.value ? evalExpr(ctx, f, s.value, line) : f;
      exitCheck(ctx, g, line);
      return new Map();
    }
    case 'If': {
      const c = evalExpr(ctx, f, s.cond, line);
      const t = execBody(ctx, s.then, withStep(c, { rank: 0, line, text: `${text}    # true` }));
      const e = execBody(ctx, s.orelse, withStep(c, { rank: 0, line, text: `${text}    # false` }));
      merge(t, e);
      return t;
    }
    case 'While':
      return loop(ctx, f, line, (g) => evalExpr(ctx, g, s.cond, line), s.body);
    case 'For': {
      let g = f;
      for (const a of s.args) g = evalExpr(ctx, g, a, line);
      for (const v of s.initValues) g = evalExpr(ctx, g, v, line);
      const cond = s.cond;
      return loop(ctx, g, line, (h) => (cond ? evalExpr(ctx, h, cond, line) : h), s.body);
    }
    case 'Scope':
      return execBody(ctx, s.body, f);
    default:
      return f; // pass; break / continue are taken as no-ops (see docs/memory-model.md)
  }
}

/** Runs one device kernel; returns its races. */
export function kernelRaces(program: Program, f: FunctionDef, source: SourceText): Race[] {
  const ctx: Ctx = {
    source,
    env: functionEnv(f),
    program: program.name,
    func: f.name,
    ids: new WeakMap(),
    nextId: 0,
    writes: new Map(),
    waits: new Map(),
    races: new Map(),
  };
  const start: Facts = new Map([[REACH, null]]);
  const end = execBody(ctx, f.body, start);
  exitCheck(ctx, end, source.lineOf(f.end));
  return [...ctx.races.values()].sort((a, b) => a.line - b.line || a.kind.localeCompare(b.kind));
}

/** Every race of every device kernel of the module (empty: the module is not racy). */
export function moduleRaces(module: Module): Race[] {
  const out: Race[] = [];
  for (const p of module.programs) {
    for (const f of p.functions) if (DEVICE_KINDS.has(f.funcKind)) out.push(...kernelRaces(p, f, module.source));
  }
  return out;
}

/** The race as text: what goes wrong, then the execution step by step. */
export function formatRace(r: Race): string {
  const lines = [
    `${r.kind === 'publish' ? 'unpublished write' : 'stale read'} in ${r.program}.${r.func}: ${r.message}`,
    'execution (rank 0 runs the kernel, rank 1 is a peer):',
  ];
  r.steps.forEach((s, i) => {
    lines.push(`  ${String(i + 1).padStart(2)}. rank ${s.rank}${s.line !== undefined ? `, line ${s.line}` : ''}: ${s.text}`);
  });
  return lines.join('\n');
}
