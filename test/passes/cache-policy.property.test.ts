/**
 * GM cache-policy properties on generated kernels (declarations in CORE_GROUP `pl.at`,
 * `for ... in pl.spmd(N)`, inline `with pl.spmd(N)` and hierarchy `pl.at` bodies, at random
 * positions, with repeats and integer spellings; loads with and without their own `cache=`;
 * outlined InCore functions carrying `pl.func_attr({"cache_policy": [...]})`):
 * - apply stamps exactly what a small model of the contract predicts (own cache= first, else
 *   the first declaration of the scope, else nothing; hierarchy scopes are inert; the
 *   outlined form's listed parameters, and its attr entry is removed);
 * - stamping is idempotent;
 * - `fmt` of a program with declarations in random positions equals `fmt` of the same program
 *   with them first (and so does `fmt` after apply);
 * - a program without declarations is never changed by the pass (generated kernels, and the
 *   random programs of src/gen);
 * - the outlined form round-trips through `fmt`;
 * - on any random program (src/gen), apply either rewrites idempotently or refuses with
 *   cache-policy errors (never a crash or an edit conflict).
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { arbPrograms, programText } from '../../src/gen/arb.js';
import { stripSpans, structurallyEqual } from '../../src/ir/equal.js';
import type { Program, Stmt } from '../../src/ir/nodes.js';
import { printModule } from '../../src/ir/print.js';
import { childBodies, isDeclaration } from '../../src/ir/visit.js';
import { applyPasses, auditText } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { runs as scaled } from '../runs.js';
import { session } from '../session.js';

const pass = passByName('cache-policy')!;
const runs = scaled(80);
const applyOnce = (text: string): string => applyPasses(text, 'gen.py', [pass], { session }).text;
const fmt = (text: string): string => printModule(parseModule(text, 'gen.py'));

// ---------------------------------------------------------------------------------------
// A model of generated kernels

type Policy = 'BYPASS' | 'DEFAULT';
/** How a policy is spelled in the source. */
interface Spelled {
  policy: Policy;
  text: string;
}
const arbSpelled: fc.Arbitrary<Spelled> = fc.constantFrom<Spelled>(
  { policy: 'BYPASS', text: 'pl.CachePolicy.BYPASS' },
  { policy: 'DEFAULT', text: 'pl.CachePolicy.DEFAULT' },
  { policy: 'BYPASS', text: '1' },
  { policy: 'DEFAULT', text: '0' },
);

const TENSORS = ['t0', 't1', 't2'];
const T = 'pl.Tensor[[64, 64], pl.FP32]';

/** One read: `pl.load(tensor, ...)`, maybe with its own cache=, maybe inside a nested loop. */
interface Load {
  tensor: number;
  own: Spelled | null;
  nested: boolean;
  /** Write the load inline, as the value stored to `out`. */
  stored: boolean;
}
const arbLoad: fc.Arbitrary<Load> = fc.record({
  tensor: fc.nat({ max: TENSORS.length - 1 }),
  own: fc.option(arbSpelled, { freq: 3 }),
  nested: fc.boolean(),
  stored: fc.boolean(),
});

type ScopeKind = 'core_group' | 'spmd_for' | 'spmd_with' | 'hierarchy';
const HEADERS: Record<ScopeKind, string> = {
  core_group: 'with pl.at(level=pl.Level.CORE_GROUP):',
  spmd_for: 'for i in pl.spmd(4):',
  spmd_with: 'with pl.spmd(4):',
  hierarchy: 'with pl.at(level=pl.Level.HOST):',
};

interface Decl {
  tensor: number;
  policy: Spelled;
}
interface Scope {
  kind: ScopeKind;
  loads: Load[];
  /** Declarations, in source order (only of tensors the scope reads; repeats allowed). */
  decls: Decl[];
  /** Where each declaration goes among the loads (0 = before the first load), non-decreasing. */
  positions: number[];
}

const arbScope: fc.Arbitrary<Scope> = fc
  .record({
    kind: fc.constantFrom<ScopeKind>('core_group', 'spmd_for', 'spmd_with', 'hierarchy'),
    loads: fc.array(arbLoad, { minLength: 1, maxLength: 5 }),
  })
  .chain(({ kind, loads }) => {
    const read = [...new Set(loads.map((l) => l.tensor))];
    return fc.array(fc.record({ tensor: fc.constantFrom(...read), policy: arbSpelled }), { maxLength: 4 }).chain((decls) =>
      fc
        .array(fc.nat({ max: loads.length }), { minLength: decls.length, maxLength: decls.length })
        // Non-decreasing, so source order = array order (the first declaration is decls[0]).
        .map((positions) => ({ kind, loads, decls, positions: positions.sort((a, b) => a - b) })),
    );
  });

/** An outlined InCore function: `pl.func_attr({"cache_policy": [...]})` over its parameters. */
interface Outlined {
  /** Entries (parameter index, policy), distinct indices, sorted. */
  entries: [number, Spelled][];
  otherAttr: boolean;
  loads: Load[];
}
const arbOutlined: fc.Arbitrary<Outlined> = fc.record({
  entries: fc
    .uniqueArray(fc.tuple(fc.nat({ max: TENSORS.length - 1 }), arbSpelled), { selector: (e) => e[0], maxLength: 3 })
    .map((es) => es.sort((a, b) => a[0] - b[0])),
  otherAttr: fc.boolean(),
  loads: fc.array(arbLoad, { minLength: 1, maxLength: 4 }),
});

interface Kernels {
  scopes: Scope[];
  outlined: Outlined | null;
}
const arbKernels: fc.Arbitrary<Kernels> = fc.record({
  scopes: fc.array(arbScope, { minLength: 1, maxLength: 3 }),
  outlined: fc.option(arbOutlined, { freq: 2 }),
});

type Stamp = (l: Load) => Policy | null;

/** Lines of one load at `indent` (`stamp`: the cache= apply adds, or null). */
function loadLines(l: Load, k: number, indent: string, stamp: Stamp): string[] {
  const own = l.own ? `, cache=${l.own.text}` : '';
  const added = !l.own && stamp(l) ? `, cache=pl.CachePolicy.${stamp(l)}` : '';
  const call = `pl.load(${TENSORS[l.tensor]}, [0, 0], [16, 16]${own}${added})`;
  const stmt = l.stored ? `pl.store(${call}, [0, 0], out)` : `v${k} = ${call}`;
  return l.nested ? [`${indent}for j${k} in pl.range(2):`, `${indent}    ${stmt}`] : [`${indent}${stmt}`];
}

/**
 * The module text; `first` puts every declaration before the loads; `applied` writes what
 * apply should produce (the model of the contract).
 */
function kernelsText(g: Kernels, o: { first?: boolean; noDecls?: boolean; applied?: boolean } = {}): string {
  const out: string[] = ['import pypto.language as pl', '', '', '@pl.program', 'class Gen:'];
  if (g.outlined) {
    const ol = g.outlined;
    const listed = new Map(ol.entries.map(([i, p]) => [i, p.policy]));
    const stamp: Stamp = (l) => (o.applied ? (listed.get(l.tensor) ?? null) : null);
    out.push('    @pl.function(type=pl.FunctionType.InCore)');
    out.push(`    def kernel(self, ${TENSORS.map((t) => `${t}: ${T}`).join(', ')}, out: pl.Out[${T}]):`);
    const entries: string[] = [];
    if (ol.entries.length > 0 && !o.noDecls && !o.applied) {
      entries.push(`"cache_policy": [${ol.entries.map(([i, p]) => `(${i}, ${p.text})`).join(', ')}]`);
    }
    if (ol.otherAttr) entries.push('"split": 2');
    if (entries.length > 0) out.push(`        pl.func_attr({${entries.join(', ')}})`);
    ol.loads.forEach((l, k) => out.push(...loadLines(l, k, '        ', stamp)));
    out.push('');
  }
  out.push('    @pl.function');
  out.push(`    def main(self, ${TENSORS.map((t) => `${t}: ${T}`).join(', ')}, out: pl.Out[${T}]) -> ${T}:`);
  g.scopes.forEach((s, si) => {
    const decls = o.noDecls ? [] : s.decls;
    const kept = new Map<number, Policy>();
    for (const d of decls) if (!kept.has(d.tensor)) kept.set(d.tensor, d.policy.policy);
    const stamp: Stamp = (l) => (o.applied && s.kind !== 'hierarchy' ? (kept.get(l.tensor) ?? null) : null);
    out.push(`        ${HEADERS[s.kind]}`);
    const declLine = (d: Decl): string => `            pl.set_cache_policy(${TENSORS[d.tensor]}, ${d.policy.text})`;
    s.loads.forEach((l, k) => {
      decls.forEach((d, di) => {
        if ((o.first ? 0 : s.positions[di]) === k) out.push(declLine(d));
      });
      out.push(...loadLines(l, si * 10 + k, '            ', stamp));
    });
    decls.forEach((d, di) => {
      if (!o.first && s.positions[di] === s.loads.length) out.push(declLine(d));
    });
  });
  out.push('        return out');
  return `${out.join('\n')}\n`;
}

/** A copy of generated programs without cache-policy declarations and `cache_policy` attrs. */
function withoutDecls(ps: readonly Program[]): Program[] {
  const copy = structuredClone(ps) as Program[];
  const clean = (body: Stmt[]): void => {
    for (let i = body.length - 1; i >= 0; i--) if (isDeclaration(body[i]!)) body.splice(i, 1);
    for (const s of body) for (const b of childBodies(s)) clean(b);
  };
  for (const p of copy) {
    for (const f of p.functions) {
      clean(f.body);
      for (const d of f.attrs) d.entries = d.entries.filter((en) => !(en.key.kind === 'Str' && en.key.value === 'cache_policy'));
      f.attrs = f.attrs.filter((d) => d.entries.length > 0);
    }
  }
  return copy;
}

describe('cache-policy properties', () => {
  test.prop([arbKernels], runs)('apply stamps exactly what the contract says', (g) => {
    expect(applyOnce(kernelsText(g))).toBe(kernelsText(g, { applied: true }));
  });

  test.prop([arbKernels], runs)('the generated kernels are valid: no error finding', (g) => {
    const errors = auditText(kernelsText(g), 'gen.py', [pass], { session }).filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.message)).toEqual([]);
  });

  test.prop([arbKernels], runs)('stamping is idempotent', (g) => {
    const once = applyOnce(kernelsText(g));
    expect(applyOnce(once)).toBe(once);
  });

  test.prop([arbKernels], runs)('fmt with declarations in random positions = fmt with them first (before and after apply)', (g) => {
    const random = kernelsText(g);
    const first = kernelsText(g, { first: true });
    expect(fmt(random)).toBe(fmt(first));
    expect(fmt(applyOnce(random))).toBe(fmt(applyOnce(first)));
  });

  test.prop([arbKernels], runs)('a program without declarations is never changed', (g) => {
    const text = kernelsText(g, { noDecls: true });
    expect(applyOnce(text)).toBe(text);
  });

  test.prop([arbPrograms({ maxDepth: 3 })], scaled(60))('random programs without declarations are never changed', (ps) => {
    const text = programText(withoutDecls(ps));
    fc.pre(!text.includes('set_cache_policy') && !text.includes('"cache_policy"'));
    expect(applyOnce(text)).toBe(text);
  });

  test.prop([arbPrograms({ maxDepth: 3 })], scaled(60))(
    'on any program, apply either rewrites or refuses with cache-policy errors',
    (ps) => {
      const text = programText(ps);
      try {
        const once = applyOnce(text);
        expect(applyOnce(once)).toBe(once);
      } catch (e) {
        const diags = (e as { diagnostics?: { code: string }[] }).diagnostics;
        expect(diags, String(e)).toBeDefined();
        for (const d of diags!) expect(d.code).toMatch(/^cache-policy-/);
      }
    },
  );

  test.prop([arbKernels], runs)('the outlined form round-trips through fmt, and apply agrees on both', (g) => {
    const text = kernelsText(g);
    const once = fmt(text);
    expect(fmt(once)).toBe(once);
    const a = parseModule(text, 'gen.py');
    const b = parseModule(once, 'gen.py');
    if (!structurallyEqual(a.programs, b.programs)) expect(stripSpans(b.programs)).toEqual(stripSpans(a.programs));
    expect(fmt(applyOnce(once))).toBe(fmt(applyOnce(text)));
  });

  it('is not vacuous: most generated programs get stamps', () => {
    const sample = fc.sample(arbKernels, { numRuns: 40, seed: 7 });
    const stamped = sample.filter((g) => applyOnce(kernelsText(g)) !== kernelsText(g)).length;
    expect(stamped).toBeGreaterThan(20);
  });
});
