/** Imported inline helpers followed transitively (issue 28 item 3): chains, diamonds, cycles, limits. */
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, MAX_MODULES } from '../../src/frontend/foreign-helpers.js';
import { type ModuleReader, parseModuleIsolated } from '../../src/frontend/index.js';
import type { FunctionDef, Module } from '../../src/ir/nodes.js';
import { walkFunction } from '../../src/ir/visit.js';

const PL = 'import pypto.language as pl\nimport pypto.language.distributed as pld\n';
const SIG = 'sig: pld.DistributedTensor[[2, 1], pl.INT32]';

/** An inline helper `name` whose body waits, then calls each of `calls`. */
const helper = (name: string, calls: string[] = []): string =>
  `@pl.jit.inline\ndef ${name}(${SIG}):\n    pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)\n${calls
    .map((c) => `    sig = ${c}(sig)\n`)
    .join('')}    return sig\n`;

const kernel = (imports: string, call: string): string =>
  `${PL}${imports}\n\n@pl.jit.incore\ndef k(${SIG}):\n    sig = ${call}(sig)\n    return sig\n`;

/** An in-memory reader counting the reads of each path. */
function reader(files: Record<string, string>, roots: string[] = []): ModuleReader & { reads: Map<string, number> } {
  const reads = new Map<string, number>();
  return {
    roots,
    reads,
    read: (p) => {
      reads.set(p, (reads.get(p) ?? 0) + 1);
      return p in files ? files[p]! : null;
    },
  };
}

/** The imported functions read with a body (name → its file). */
function bodies(m: Module): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of m.programs) {
    if (!p.imported) continue;
    for (const f of p.functions) if (f.body.length > 0) out.set(f.name, m.parts ? partPath(m, f) : '');
  }
  return out;
}

function partPath(m: Module, f: FunctionDef): string {
  const parts = m.parts!;
  let k = parts.length - 1;
  while (k > 0 && parts[k]!.base > f.start) k--;
  return parts[k]!.source.path;
}

/** The names function `name` of the module calls as inline calls. */
function calls(m: Module, name: string): string[] {
  const out: string[] = [];
  const f = m.programs.flatMap((p) => p.functions).find((g) => g.name === name && g.body.length > 0)!;
  walkFunction(f, {
    expr: (e) => {
      if (e.kind === 'Call' && e.callee.kind === 'self') out.push(e.callee.name);
    },
  });
  return out;
}

const notes = (m: Module): { code: string; path: string; line: number; message: string }[] =>
  (m.problems ?? []).map((d) => ({
    code: d.code,
    path: d.location!.source.path,
    line: d.location!.source.position(d.location!.start).line,
    message: d.message,
  }));

describe('imported inline helpers, transitively', () => {
  it('a three-level chain (relative and absolute imports): every level is read with its body, in its own file', () => {
    const files = {
      'p/lib/comm/relay.py': `${PL}from ..sync.wait import wait_peer\nfrom lib.sync.notify import notify_peer\n\n${helper('push', ['wait_peer', 'notify_peer'])}`,
      'p/lib/sync/wait.py': `${PL}\n${helper('wait_peer')}`,
      'p/lib/sync/notify.py': `${PL}\n${helper('notify_peer')}`,
    };
    const m = parseModuleIsolated(kernel('from lib.comm.relay import push', 'push'), 'p/kern.py', { modules: reader(files) });
    expect(notes(m)).toEqual([]);
    expect(bodies(m)).toEqual(
      new Map([
        ['push', 'p/lib/comm/relay.py'],
        ['wait_peer', 'p/lib/sync/wait.py'],
        ['notify_peer', 'p/lib/sync/notify.py'],
      ]),
    );
    expect(calls(m, 'push')).toEqual(['wait_peer', 'notify_peer']);
  });

  it('a diamond: the shared helper and its module are read once', () => {
    const files = {
      'p/left.py': `${PL}from .flag import raise_flag\n\n${helper('left', ['raise_flag'])}`,
      'p/right.py': `${PL}from flag import raise_flag\n\n${helper('right', ['raise_flag'])}`,
      'p/flag.py': `${PL}\n${helper('raise_flag')}`,
    };
    const r = reader(files);
    const text = `${PL}from .left import left\nfrom .right import right\n\n@pl.jit.incore\ndef k(${SIG}):\n    sig = left(sig)\n    sig = right(sig)\n    return sig\n`;
    const m = parseModuleIsolated(text, 'p/kern.py', { modules: r });
    expect([...bodies(m).keys()].sort()).toEqual(['left', 'raise_flag', 'right']);
    expect(r.reads.get('p/flag.py')).toBe(1);
    expect(r.reads.get('p/left.py')).toBe(1);
    expect(m.parts?.map((p) => p.source.path)).toEqual(['p/kern.py', 'p/left.py', 'p/right.py', 'p/flag.py']);
  });

  it('an import cycle Python accepts is followed, each module once; recursion across modules ends', () => {
    const files = {
      'p/a.py': `${PL}\n${helper('fa', ['fb'])}\nfrom .b import fb\n`,
      'p/b.py': `${PL}from .a import fa\n\n${helper('fb', ['fa'])}`,
    };
    const r = reader(files);
    const m = parseModuleIsolated(kernel('from .a import fa', 'fa'), 'p/kern.py', { modules: r });
    expect([...bodies(m).keys()].sort()).toEqual(['fa', 'fb']);
    expect(calls(m, 'fb')).toEqual(['fa']);
    expect(r.reads.get('p/a.py')).toBe(1);
    expect(notes(m)).toEqual([]);
  });

  it('a circular `from X import name` run before X defines the name is a located note (ImportError in Python)', () => {
    const files = {
      'p/a.py': `${PL}from .b import fb\n\n${helper('fa', ['fb'])}\n${helper('fa2')}`,
      'p/b.py': `${PL}from .a import fa2\n\n${helper('fb', ['fa2'])}`,
    };
    const m = parseModuleIsolated(kernel('from .a import fa', 'fa'), 'p/kern.py', { modules: reader(files) });
    expect(notes(m).map((n) => [n.code, n.path, n.line])).toEqual([['unresolved-import', 'p/b.py', 3]]);
    expect(notes(m)[0]!.message).toMatch(/ImportError.*circular import/);
    expect([...bodies(m).keys()].sort()).toEqual(['fa', 'fb']);
  });

  it('a helper of another module named like the kernel file own function gets a name of its own; the calls follow it', () => {
    const files = {
      'p/relay.py': `${PL}from .deep import notify\n\n${helper('push', ['notify'])}`,
      'p/deep.py': `${PL}\n${helper('notify')}`,
    };
    const text = `${PL}from .relay import push\n\n${helper('notify')}\n@pl.jit.incore\ndef k(${SIG}):\n    sig = push(sig)\n    sig = notify(sig)\n    return sig\n`;
    const m = parseModuleIsolated(text, 'p/kern.py', { modules: reader(files) });
    expect(bodies(m).get('deep.notify')).toBe('p/deep.py');
    expect(calls(m, 'push')).toEqual(['deep.notify']);
    expect(calls(m, 'k')).toEqual(['push', 'notify']);
  });

  it('an import a helper cannot follow is a note in the helper file; an absolute import is not searched in the helper folder', () => {
    const files = {
      'p/pkg/relay.py': `${PL}from sibling import ping\n\n${helper('push', ['ping'])}`,
      'p/pkg/sibling.py': `${PL}\n${helper('ping')}`,
    };
    const m = parseModuleIsolated(kernel('from pkg.relay import push', 'push'), 'p/kern.py', { modules: reader(files) });
    expect(notes(m).map((n) => [n.code, n.path, n.line])).toEqual([['unresolved-import', 'p/pkg/relay.py', 3]]);
    expect(notes(m)[0]!.message).toMatch(/the inline helper 'push' calls 'ping'.*write `from \.sibling import \.\.\.`/);
  });

  it(`a chain deeper than ${MAX_DEPTH} imports stops with a located note`, () => {
    const files: Record<string, string> = {};
    const n = MAX_DEPTH + 3;
    for (let i = 1; i <= n; i++)
      files[`p/m${i}.py`] = `${PL}${i < n ? `from .m${i + 1} import h${i + 1}\n` : ''}\n${helper(`h${i}`, i < n ? [`h${i + 1}`] : [])}`;
    const m = parseModuleIsolated(kernel('from .m1 import h1', 'h1'), 'p/kern.py', { modules: reader(files) });
    expect(bodies(m).size).toBe(MAX_DEPTH);
    expect(notes(m).map((x) => [x.path, x.line])).toEqual([[`p/m${MAX_DEPTH}.py`, 3]]);
    expect(notes(m)[0]!.message).toMatch(new RegExp(`at most ${MAX_DEPTH} imports deep`));
  });

  it(`more than ${MAX_MODULES} helper modules: the rest are stand-ins, with a note`, () => {
    const n = MAX_MODULES + 5;
    const files: Record<string, string> = {};
    const names = Array.from({ length: n }, (_, i) => `g${i}`);
    files['p/hub.py'] = `${PL}${names.map((g) => `from .${g} import ${g}\n`).join('')}\n${helper('hub', names)}`;
    for (const g of names) files[`p/${g}.py`] = `${PL}\n${helper(g)}`;
    const m = parseModuleIsolated(kernel('from .hub import hub', 'hub'), 'p/kern.py', { modules: reader(files) });
    expect(bodies(m).size).toBe(MAX_MODULES);
    expect(notes(m).length).toBeGreaterThan(0);
    expect(notes(m).every((x) => x.path === 'p/hub.py' && /at most 200 helper modules/.test(x.message))).toBe(true);
  });
});
