import { describe, expect, it } from 'vitest';
import {
  assign,
  call,
  dtype,
  enumLit,
  exprStmt,
  fors,
  func,
  ifs,
  int,
  kw,
  name,
  param,
  pass,
  program,
  scope,
  tensor,
} from '../../src/gen/build.js';
import type { Stmt } from '../../src/ir/nodes.js';
import { OPS, opByCanonical } from '../../src/ir/ops.js';
import { childBodies, hoistDecls, isDeclaration, namesUsed, walkStmts } from '../../src/ir/visit.js';

describe('visit helpers', () => {
  const decl = exprStmt(call('pl.set_cache_policy', [name('b'), enumLit('CachePolicy', 'BYPASS')]));

  it('hoistDecls is stable and returns canonical bodies unchanged', () => {
    const body: Stmt[] = [decl, pass()];
    expect(hoistDecls(body)).toBe(body);
    const x = assign('x', int(1));
    const d2 = exprStmt(call('set_cache_policy', [name('a'), enumLit('CachePolicy', 'DEFAULT')]));
    expect(hoistDecls([x, decl, pass(), d2])).toEqual([decl, d2, x, pass()]);
    expect(isDeclaration(decl)).toBe(true);
    expect(isDeclaration(x)).toBe(false);
  });

  it('a declaration is a statement of an op the op catalog marks so (frontend_declaration), not a name in the code', () => {
    expect(OPS.filter((o) => o.declaration).map((o) => o.canonical)).toEqual(['set_cache_policy']);
    const fence = exprStmt(call('system.fence', []));
    expect(isDeclaration(fence)).toBe(false);
    const spec = opByCanonical('system.fence')!;
    spec.declaration = true; // as if the catalog said so
    try {
      expect(isDeclaration(fence)).toBe(true);
      expect(hoistDecls([pass(), fence])).toEqual([fence, pass()]);
    } finally {
      delete spec.declaration;
    }
  });

  it('walkStmts visits nested bodies in pre-order with depth', () => {
    const s = ifs(name('c'), [fors('range', 'i', [int(0), int(4), int(1)], [pass()])], [scope('auto', [decl])]);
    const seen: string[] = [];
    walkStmts([s], (st, d) => seen.push(`${st.kind}@${d}`));
    expect(seen).toEqual(['If@0', 'For@1', 'Pass@2', 'Scope@1', 'ExprStmt@2']);
    expect(childBodies(s)).toHaveLength(2);
  });

  it('namesUsed sees shapes, decorator keywords, bodies and nested expressions', () => {
    const f = func(
      'k',
      'InCore',
      [param('x', tensor([int(1), name('N')], dtype('FP32')))],
      [fors('range', 'i', [int(0), name('M'), int(1)], [assign('y', call('pl.add', [name('K')], [kw('a', name('L'))]))])],
      { decoratorKwargs: [kw('level', name('LEVEL'))] },
    );
    const used = namesUsed([program('P', [f])]);
    for (const n of ['N', 'M', 'K', 'L', 'LEVEL', 'i', 'y', 'x']) expect(used.has(n), n).toBe(n !== 'x');
  });
});
