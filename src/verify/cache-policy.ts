/**
 * The independent oracle for the cache-policy contract: a model, written from
 * docs/contracts/gm-cache-policy.md and not from rules/cache_policy/, of which declarations are
 * errors (and which error) and which `cache=` each `pl.load` carries after `apply`: its own
 * first, else the first valid declaration of the enclosing kernel scope for the binding it
 * reads (by identity: a name rebound in the scope is a new binding), else the outlined kernel's
 * `pl.func_attr({"cache_policy": ...})` entry for the parameter, else none. Hierarchy scopes
 * accept declarations but stamp nothing.
 */
import { attrValue } from '../ir/func-attrs.js';
import type { CallExpr, Expr, FunctionDef, Module, Program, Stmt } from '../ir/nodes.js';
import { printExpr } from '../ir/print.js';
import { childBodies, stmtParts, walkExpr } from '../ir/visit.js';

type Policy = 'DEFAULT' | 'BYPASS';
type ScopeClass = 'kernel' | 'hierarchy' | 'Spmd' | 'Cluster' | 'Runtime';

/** What the contract expects of a module: its errors (`line: code`, sorted) and each load's `cache=` after apply. */
export interface CacheExpectation {
  errors: string[];
  /** Per `pl.load`, in the order of loadCaches(): the text of its `cache=` after apply, or null. */
  stamps: (string | null)[];
}

const isOp = (e: Expr, name: string): e is CallExpr => e.kind === 'Call' && e.callee.kind === 'op' && e.callee.name === name;
const isDecl = (s: Stmt): boolean => s.kind === 'ExprStmt' && isOp(s.value, 'set_cache_policy');

function policyOf(e: Expr | undefined): Policy | null {
  if (!e) return null;
  if (e.kind === 'Enum' && e.enum === 'CachePolicy' && (e.member === 'DEFAULT' || e.member === 'BYPASS')) return e.member;
  if (e.kind === 'Int') return e.value === 0 ? 'DEFAULT' : e.value === 1 ? 'BYPASS' : null;
  return null;
}

/** The class of a scope-like statement (null: not a scope a declaration can stand in). */
function scopeClass(s: Stmt): ScopeClass | null {
  if (s.kind === 'For') return s.loopKind === 'spmd' ? 'kernel' : null;
  if (s.kind !== 'Scope') return null;
  switch (s.scope) {
    case 'at': {
      const level = s.kwargs.find((k) => k.name === 'level')?.value ?? s.args[0];
      return level?.kind === 'Enum' && level.enum === 'Level' && level.member === 'CORE_GROUP' ? 'kernel' : 'hierarchy';
    }
    case 'spmd': {
      // Dispatch-shaped: it only calls kernels (besides declarations).
      const calls = (x: Stmt): boolean =>
        (x.kind === 'ExprStmt' || x.kind === 'Assign') &&
        (x.value.kind === 'Submit' || (x.value.kind === 'Call' && x.value.callee.kind === 'self'));
      const others = s.body.filter((x) => !isDecl(x) && x.kind !== 'Pass');
      return others.length > 0 && others.every(calls) ? 'Spmd' : 'kernel';
    }
    case 'cluster':
      return 'Cluster';
    default:
      return 'Runtime';
  }
}

interface Use {
  read: boolean;
  write: boolean;
}

/** The uses of each name's incoming binding in `body` (declarations excluded; a rebound name's later uses are not its). */
function scopeUses(body: readonly Stmt[], program: Program): Map<string, Use> {
  const uses = new Map<string, Use>();
  const rebound = new Set<string>();
  const mark = (name: string, write: boolean): void => {
    if (rebound.has(name)) return;
    const u = uses.get(name) ?? { read: false, write: false };
    if (write) u.write = true;
    else u.read = true;
    uses.set(name, u);
  };
  const expr = (e: Expr): void =>
    walkExpr(e, (x) => {
      if (x.kind === 'Name') mark(x.id, false);
      if (x.kind !== 'Call') return;
      // Writes: a store's / write's / assemble's destination; an argument bound to an Out / InOut parameter.
      const op = x.callee.kind === 'op' ? x.callee.name : '';
      const dst = op === 'tile.store' ? x.args[2] : op === 'tensor.write' || op === 'tensor.assemble' ? x.args[0] : undefined;
      if (dst?.kind === 'Name') mark(dst.id, true);
      if (x.callee.kind === 'self') {
        const callee = program.functions.find((f) => f.name === (x.callee as { name: string }).name);
        x.args.forEach((a, i) => {
          const p = callee?.params[i];
          if (a.kind === 'Name' && p && p.direction !== 'in') mark(a.id, true);
        });
      }
    });
  const walk = (stmts: readonly Stmt[]): void => {
    for (const s of stmts) {
      if (isDecl(s)) continue;
      stmtParts(s, (e) => {
        if (s.kind === 'Assign' && s.targets.includes(e as never)) return;
        if (s.kind === 'For' && (e === s.target || s.iterArgs.includes(e as never))) return;
        expr(e);
      });
      if (s.kind === 'Assign') for (const t of s.targets) rebound.add(t.id);
      for (const b of childBodies(s)) walk(b);
    }
  };
  walk(body);
  return uses;
}

interface Kernel {
  kept: Map<string, Policy>;
}

/** The contract's expectation for `module` (see the file comment). */
export function cacheExpectation(module: Module): CacheExpectation {
  const errors: string[] = [];
  const stamps: (string | null)[] = [];
  const lineOf = (n: { start: number }): number => module.source.lineOf(n.start);
  const err = (n: { start: number }, code: string): void => void errors.push(`${lineOf(n)}: cache-policy-${code}`);

  for (const p of module.programs) {
    for (const f of p.functions) {
      const boundBefore = (name: string, at: number): 'tensor' | 'other' | null => {
        let kind: 'tensor' | 'other' | null = null;
        const param = f.params.find((x) => x.name === name);
        if (param) kind = param.type?.kind === 'TensorType' ? 'tensor' : param.type === null ? 'tensor' : 'other';
        const visit = (stmts: readonly Stmt[]): void => {
          for (const s of stmts) {
            if (s.start >= at) return;
            if (s.kind === 'Assign' && s.targets.some((t) => t.id === name)) kind = 'tensor';
            for (const b of childBodies(s)) visit(b);
          }
        };
        visit(f.body);
        return kind;
      };

      // Declarations: placement, then form, binding and policy; the first valid one per name is kept.
      const kernels = new Map<Stmt, Kernel>();
      const declsIn = (owner: Stmt | null, body: readonly Stmt[]): void => {
        const cls = owner ? scopeClass(owner) : null;
        const kept = new Map<string, Policy>();
        for (const s of body) {
          if (!isDecl(s)) continue;
          const c = (s as { value: CallExpr }).value;
          if (cls === null) err(s, 'placement');
          else if (cls !== 'kernel' && cls !== 'hierarchy') err(s, 'no-scope');
          else if (c.args.length !== 2 || c.kwargs.length > 0) err(s, 'arity');
          else if (c.args[0]!.kind !== 'Name') err(s, 'not-a-name');
          else {
            const name = (c.args[0] as { id: string }).id;
            const bound = boundBefore(name, owner!.start);
            const pol = policyOf(c.args[1]);
            if (bound === null) err(s, 'undefined');
            else if (bound === 'other') err(s, 'not-a-tensor');
            else if (pol === null) err(s, 'bad-policy');
            else if (!kept.has(name)) kept.set(name, pol);
          }
        }
        if (owner && (cls === 'kernel' || cls === 'hierarchy')) {
          const uses = scopeUses(body, p);
          // Report in source order of the kept declarations.
          for (const s of body) {
            if (!isDecl(s)) continue;
            const c = (s as { value: CallExpr }).value;
            const a0 = c.args[0];
            if (a0?.kind !== 'Name' || c.args.length !== 2 || c.kwargs.length > 0) continue;
            const pol = kept.get(a0.id);
            if (pol === undefined || policyOf(c.args[1]) === null || boundBefore(a0.id, owner.start) !== 'tensor') continue;
            // Only the kept (first valid) declaration of the name is judged.
            const first = body.find(
              (x) =>
                isDecl(x) &&
                ((x as { value: CallExpr }).value.args[0] as { id?: string } | undefined)?.id === a0.id &&
                (x as { value: CallExpr }).value.args.length === 2 &&
                (x as { value: CallExpr }).value.kwargs.length === 0 &&
                policyOf((x as { value: CallExpr }).value.args[1]) !== null,
            );
            if (first !== s) continue;
            const u = uses.get(a0.id);
            if (!u) err(s, 'not-captured');
            else if (pol === 'BYPASS' && u.write) err(s, 'bypass-written');
          }
          if (cls === 'kernel') kernels.set(owner, { kept });
        }
        for (const s of body) for (const b of childBodies(s)) declsIn(s, b);
      };
      declsIn(null, f.body);

      // Stamps: every load, in the order loadCaches() reads them.
      const attr = attrPolicies(f);
      const stampsIn = (body: readonly Stmt[], kernel: Kernel | null, rebound: Set<string>): void => {
        for (const s of body) {
          stmtParts(s, (e) =>
            walkExpr(e, (x) => {
              if (!isOp(x, 'tile.load')) return;
              const own = x.kwargs.find((k) => k.name === 'cache');
              const src = x.args[0];
              const name = src?.kind === 'Name' && !rebound.has(src.id) ? src.id : null;
              let stamp: string | null = null;
              if (own) stamp = printExpr(own.value);
              else if (name !== null && kernel?.kept.has(name)) stamp = `pl.CachePolicy.${kernel.kept.get(name)}`;
              else if (name !== null && kernel === null && attr.has(name)) stamp = `pl.CachePolicy.${attr.get(name)}`;
              stamps.push(stamp);
            }),
          );
          if (s.kind === 'Assign') for (const t of s.targets) rebound.add(t.id);
          const k = kernels.get(s);
          // A kernel scope starts from its incoming bindings; other nested bodies keep the current ones.
          for (const b of childBodies(s)) stampsIn(b, k ?? kernel, k ? new Set() : rebound);
        }
      };
      stampsIn(f.body, null, new Set());
    }
  }
  return { errors: errors.sort(), stamps };
}

/** An outlined InCore kernel's `cache_policy` attribute: parameter name → policy (first entry per index). */
function attrPolicies(f: FunctionDef): Map<string, Policy> {
  const out = new Map<string, Policy>();
  if (f.funcKind !== 'InCore') return out;
  const list = attrValue(f, 'cache_policy');
  if (list?.kind !== 'List') return out;
  const seen = new Set<number>();
  for (const t of list.elts) {
    if (t.kind !== 'Tuple' || t.elts[0]?.kind !== 'Int') continue;
    const i = t.elts[0].value;
    const pol = policyOf(t.elts[1]);
    if (pol === null || seen.has(i)) continue;
    seen.add(i);
    const param = f.params[i];
    if (param) out.set(param.name, pol);
  }
  return out;
}

/** The `cache=` text of every `pl.load` of the module (null: none), in statement order. */
export function loadCaches(module: Module): (string | null)[] {
  const out: (string | null)[] = [];
  const walk = (body: readonly Stmt[]): void => {
    for (const s of body) {
      stmtParts(s, (e) =>
        walkExpr(e, (x) => {
          if (isOp(x, 'tile.load')) {
            const own = x.kwargs.find((k) => k.name === 'cache');
            out.push(own ? printExpr(own.value) : null);
          }
        }),
      );
      for (const b of childBodies(s)) walk(b);
    }
  };
  for (const p of module.programs) for (const f of p.functions) walk(f.body);
  return out;
}

/** True when an InCore function of the module still carries a `cache_policy` attribute. */
export function hasCacheAttr(module: Module): boolean {
  return module.programs.some((p) => p.functions.some((f) => f.funcKind === 'InCore' && attrValue(f, 'cache_policy') !== undefined));
}
