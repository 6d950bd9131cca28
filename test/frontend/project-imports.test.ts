/** Helpers imported from the project's other modules (issue 28 item 3), through an in-memory reader. */
import { describe, expect, it } from 'vitest';
import { type ModuleReader, parseModuleIsolated } from '../../src/frontend/index.js';
import type { Expr, Stmt } from '../../src/ir/nodes.js';

const HELPER =
  'import pypto.language as pl\n\n@pl.jit.inline\ndef ping(x: pl.Tensor[[8], pl.FP32]):\n    return x\n\ndef plain(x):\n    return x\n';

function reader(files: Record<string, string>, roots: string[] = []): ModuleReader {
  return { roots, read: (p) => (p in files ? files[p]! : null) };
}

const kernel = (imports: string, call: string): string =>
  `import pypto.language as pl\n${imports}\n\n@pl.jit.incore\ndef k(x: pl.Tensor[[8], pl.FP32]):\n    x = ${call}(x)\n    return x\n`;

function callee(text: string, modules: ModuleReader): { kind: string; name?: string } {
  const m = parseModuleIsolated(text, 'proj/pkg/kern.py', { modules });
  const k = m.programs.find((p) => !p.imported)!.functions[0]!;
  const s = k.body[0] as Stmt & { value: Expr };
  const c = s.value.kind === 'Call' ? s.value.callee : null;
  return c?.kind === 'self' ? { kind: 'self', name: c.name } : { kind: c?.kind ?? 'none' };
}

describe('imported inline helpers', () => {
  it('a relative import: the call is an inline call of the helper', () => {
    expect(callee(kernel('from .helpers import ping', 'ping'), reader({ 'proj/pkg/helpers.py': HELPER }))).toEqual({
      kind: 'self',
      name: 'ping',
    });
  });

  it('two dots go up a package; an alias is followed', () => {
    expect(callee(kernel('from ..lib.helpers import ping as p', 'p'), reader({ 'proj/lib/helpers.py': HELPER }))).toEqual({
      kind: 'self',
      name: 'p',
    });
  });

  it('an absolute import: the file folder, then the roots; a package __init__ re-export', () => {
    const files = { 'root/comm/__init__.py': 'from .ops import ping\n', 'root/comm/ops.py': HELPER };
    expect(callee(kernel('from comm import ping', 'ping'), reader(files, ['root']))).toEqual({ kind: 'self', name: 'ping' });
    expect(callee(kernel('import comm.ops as o', 'o.ping'), reader(files, ['root']))).toEqual({ kind: 'self', name: 'o.ping' });
    expect(callee(kernel('from comm import ops', 'ops.ping'), reader(files, ['root']))).toEqual({ kind: 'self', name: 'ops.ping' });
    expect(callee(kernel('import comm.ops', 'comm.ops.ping'), reader(files, ['root']))).toEqual({ kind: 'self', name: 'comm.ops.ping' });
  });

  it('a function that is no inline helper stays a user call; the stub program is not printed', () => {
    expect(callee(kernel('from .helpers import plain', 'plain'), reader({ 'proj/pkg/helpers.py': HELPER }))).toEqual({ kind: 'other' });
  });

  it('an import not found, or a module that cannot be read, is a located note where a kernel calls it', () => {
    const none = parseModuleIsolated(kernel('from .missing import ping', 'ping'), 'proj/pkg/kern.py', { modules: reader({}) });
    expect(none.problems?.map((d) => [d.code, d.location?.source.position(d.location.start).line])).toEqual([['unresolved-import', 2]]);
    expect(none.problems?.[0]?.message).toMatch(/'\.missing' is not found/);
    const locked: ModuleReader = { roots: [], read: () => ({ error: 'permission denied' }) };
    const bad = parseModuleIsolated(kernel('from .helpers import ping', 'ping'), 'proj/pkg/kern.py', { modules: locked });
    expect(bad.problems?.[0]?.message).toMatch(/cannot be read \(permission denied\)/);
  });

  it('a module found that does not define the name is a note too', () => {
    const m = parseModuleIsolated(kernel('from .helpers import pong', 'pong'), 'proj/pkg/kern.py', {
      modules: reader({ 'proj/pkg/helpers.py': HELPER }),
    });
    expect(m.problems?.map((d) => d.code)).toEqual(['unresolved-import']);
    expect(m.problems?.[0]?.message).toMatch(/proj\/pkg\/helpers\.py does not define 'pong'/);
  });

  it('no note for an import no kernel calls, nor for the standard library', () => {
    const text = `${kernel('from .missing import other\nimport math', 'pl.exp')}`;
    const m = parseModuleIsolated(text, 'proj/pkg/kern.py', { modules: reader({}) });
    expect(m.problems ?? []).toEqual([]);
  });
});
