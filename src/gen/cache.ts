/**
 * fast-check arbitraries of cache-policy programs for `verify`: scopes of every class the
 * contract names (CORE_GROUP `pl.at`, `for ... in pl.spmd`, inline and dispatch-shaped
 * `with pl.spmd`, hierarchy `pl.at`, `pl.cluster`, runtime scopes) holding loads (with and
 * without their own `cache=`, nested in loops, inline in stores), copies that write a tensor,
 * rebindings of a declared name, and `pl.set_cache_policy` declarations — mostly well formed,
 * sometimes in each erroneous form (arity, not a name, undefined, not a tensor, bad policy,
 * nested, at function level); and an outlined InCore kernel with `pl.func_attr({"cache_policy":
 * [...]})`, sometimes after another `pl.func_attr` line. Bodies are arrays, so fast-check and the
 * statement shrinker shrink them.
 */
import fc from 'fast-check';

const TENSORS = ['t0', 't1', 't2'];
const T = 'pl.Tensor[[64, 64], pl.FP32]';

type Spelled = string;
const arbPolicy: fc.Arbitrary<Spelled> = fc.constantFrom('pl.CachePolicy.BYPASS', 'pl.CachePolicy.DEFAULT', '1', '0');
const arbTensor = fc.nat({ max: TENSORS.length - 1 });

type Item =
  | { k: 'load'; t: number; own: Spelled | null; nested: boolean }
  | { k: 'copy'; from: number; to: number | 'out' }
  | { k: 'rebind'; t: number; from: number }
  /** `arg`: a tensor index (mostly one the scope reads: `read`), or a non-tensor argument's text. */
  | { k: 'decl'; arg: number | string; read: boolean; policy: Spelled; arity: boolean; nested: boolean }
  | { k: 'call' };

const arbDeclArg: fc.Arbitrary<number | string> = fc.oneof(
  { weight: 150, arbitrary: arbTensor },
  { weight: 1, arbitrary: fc.constant('s') },
  { weight: 1, arbitrary: fc.constant('zz') },
  { weight: 1, arbitrary: fc.constant('t0 + t1') },
);
const arbDecl: fc.Arbitrary<Item> = fc.record({
  k: fc.constant('decl' as const),
  arg: arbDeclArg,
  read: fc.oneof({ weight: 60, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  policy: fc.oneof({ weight: 150, arbitrary: arbPolicy }, { weight: 1, arbitrary: fc.constant('2') }),
  arity: fc.constant(false),
  nested: fc.oneof({ weight: 100, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});
const arbItem: fc.Arbitrary<Item> = fc.oneof(
  {
    weight: 60,
    arbitrary: fc.record({
      k: fc.constant('load' as const),
      t: arbTensor,
      own: fc.option(arbPolicy, { freq: 3, nil: null }),
      nested: fc.boolean(),
    }),
  },
  { weight: 40, arbitrary: arbDecl },
  {
    weight: 20,
    arbitrary: fc.record({
      k: fc.constant('copy' as const),
      from: arbTensor,
      to: fc.oneof({ weight: 1, arbitrary: fc.constant('out' as const) }, { weight: 1, arbitrary: arbTensor }),
    }),
  },
  { weight: 8, arbitrary: fc.record({ k: fc.constant('rebind' as const), t: arbTensor, from: arbTensor }) },
  {
    weight: 1,
    arbitrary: fc.constant<Item>({ k: 'decl', arg: 0, read: true, policy: 'pl.CachePolicy.BYPASS', arity: true, nested: false }),
  },
);

type ScopeKind = 'core_group' | 'spmd_for' | 'spmd_with' | 'dispatch' | 'hierarchy' | 'cluster' | 'manual';
const HEADERS: Record<ScopeKind, string> = {
  core_group: 'with pl.at(level=pl.Level.CORE_GROUP):',
  spmd_for: 'for i in pl.spmd(4):',
  spmd_with: 'with pl.spmd(4):',
  dispatch: 'with pl.spmd(4):',
  hierarchy: 'with pl.at(level=pl.Level.HOST):',
  cluster: 'with pl.cluster():',
  manual: 'with pl.manual_scope():',
};
interface Scope {
  kind: ScopeKind;
  items: Item[];
}
const arbScope: fc.Arbitrary<Scope> = fc.record({
  kind: fc.oneof(
    { weight: 40, arbitrary: fc.constantFrom<ScopeKind>('core_group', 'spmd_for', 'spmd_with') },
    { weight: 6, arbitrary: fc.constant<ScopeKind>('hierarchy') },
    { weight: 1, arbitrary: fc.constantFrom<ScopeKind>('dispatch', 'cluster', 'manual') },
  ),
  items: fc.array(arbItem, { minLength: 1, maxLength: 6 }),
});

interface Outlined {
  entries: [number, Spelled][];
  loads: Item[];
}
interface CacheProgram {
  scopes: Scope[];
  topDecl: boolean;
  outlined: Outlined | null;
}
const arbLoad: fc.Arbitrary<Item> = fc.record({
  k: fc.constant('load' as const),
  t: arbTensor,
  own: fc.option(arbPolicy, { freq: 3, nil: null }),
  nested: fc.boolean(),
});

/** A cache-policy program (a structure that shrinks: arrays of scopes and items). */
export function arbCacheProgram(): fc.Arbitrary<CacheProgram> {
  return fc.record({
    scopes: fc.array(arbScope, { minLength: 1, maxLength: 3 }),
    topDecl: fc.oneof({ weight: 40, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    outlined: fc.option(
      fc.record({
        entries: fc.array(fc.tuple(arbTensor, arbPolicy), { maxLength: 3 }),
        loads: fc.array(arbLoad, { minLength: 1, maxLength: 4 }),
      }),
      { freq: 3 },
    ),
  });
}

/** The tensors a scope's loads and copies use, in order of first use. */
function readTensors(items: readonly Item[], last: boolean): number[] {
  const out: number[] = [];
  const rebound = new Set<number>();
  for (const it of items) {
    // A use after a rebinding is the new binding's, which no declaration names.
    if (it.k === 'rebind' && last && it.t !== it.from) rebound.add(it.t);
    if (it.k === 'copy' && rebound.has(it.from)) continue;
    const ts = it.k === 'load' ? [it.t] : it.k === 'copy' ? [it.from, ...(it.to === 'out' ? [] : [it.to])] : [];
    for (const t of ts) if (!out.includes(t) && !rebound.has(t)) out.push(t);
  }
  return out;
}

function itemLines(it: Item, k: number, ind: string, last: boolean, read: readonly number[] = []): string[] {
  switch (it.k) {
    case 'load': {
      const own = it.own ? `, cache=${it.own}` : '';
      const stmt = `v${k} = pl.load(${TENSORS[it.t]}, [0, 0], [16, 16]${own})`;
      return it.nested ? [`${ind}for j${k} in pl.range(2):`, `${ind}    ${stmt}`] : [`${ind}${stmt}`];
    }
    case 'copy':
      return [`${ind}pl.store(pl.load(${TENSORS[it.from]}, [0, 0], [16, 16]), [0, 0], ${it.to === 'out' ? 'out' : TENSORS[it.to]})`];
    case 'rebind':
      // Only in the last scope: a name rebound in an earlier scope would change what later scopes' declarations name.
      return last && it.t !== it.from ? [`${ind}${TENSORS[it.t]} = ${TENSORS[it.from]}`] : [];
    case 'call':
      return [`${ind}self.kernel(t0, t1, t2, out)`];
    case 'decl': {
      const t = typeof it.arg === 'number' && it.read && read.length > 0 ? read[it.arg % read.length]! : it.arg;
      const line = `pl.set_cache_policy(${typeof t === 'number' ? TENSORS[t] : t}, ${it.policy}${it.arity ? ', 1' : ''})`;
      return it.nested ? [`${ind}if s > 0:`, `${ind}    ${line}`] : [`${ind}${line}`];
    }
  }
}

/** The module text of a generated cache-policy program. */
export function cacheModuleText(p: CacheProgram): string {
  const out = ['import pypto.language as pl', '', '', '@pl.program', 'class Gen:'];
  const params = `${TENSORS.map((t) => `${t}: ${T}`).join(', ')}, out: pl.Out[${T}]`;
  if (p.outlined) {
    out.push('    @pl.function(type=pl.FunctionType.InCore)', `    def kernel(self, ${params}):`);
    // An odd number of loads: another attribute line first (PyPTO merges the lines; the entry
    // is read, and removed, on the second).
    if (p.outlined.loads.length % 2 === 1) out.push('        pl.func_attr({"split": 2})');
    if (p.outlined.entries.length > 0) {
      out.push(`        pl.func_attr({"cache_policy": [${p.outlined.entries.map(([i, s]) => `(${i}, ${s})`).join(', ')}]})`);
    }
    p.outlined.loads.forEach((l, k) => out.push(...itemLines(l, 100 + k, '        ', false)));
    out.push('');
  }
  out.push('    @pl.function', `    def main(self, ${params}, s: pl.Scalar[pl.INT32]) -> ${T}:`);
  if (p.topDecl) out.push('        pl.set_cache_policy(t0, pl.CachePolicy.BYPASS)');
  p.scopes.forEach((s, si) => {
    out.push(`        ${HEADERS[s.kind]}`);
    const items: Item[] = s.kind === 'dispatch' ? [{ k: 'call' }, ...s.items.filter((x) => x.k === 'decl')] : s.items;
    const read = readTensors(items, si === p.scopes.length - 1);
    const lines = items.flatMap((it, k) => itemLines(it, si * 10 + k, '            ', si === p.scopes.length - 1, read));
    // A scope of declarations only reads the first declared tensor (else every declaration is not captured).
    const first = items.find((it) => it.k === 'decl' && typeof it.arg === 'number');
    if (read.length === 0 && first?.k === 'decl' && s.kind !== 'dispatch') {
      lines.push(`            v${si * 10 + 9} = pl.load(${TENSORS[first.arg as number]}, [0, 0], [16, 16])`);
    }
    out.push(...(lines.length > 0 ? lines : ['            pass']));
  });
  out.push('        return out', '');
  return out.join('\n');
}
