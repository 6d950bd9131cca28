/** Names through the module's imports, and programs / functions read on their own. */
import { describe, expect, it } from 'vitest';
import { respell } from '../../src/frontend/imports.js';
import { moduleErrors, parseModule, parseModuleIsolated } from '../../src/frontend/index.js';
import { dotted } from '../../src/ir/dotted.js';
import { ty } from './helpers.js';

const KERNEL = (pl: string, annotation: string): string =>
  `@${pl}.program\nclass P:\n    @${pl}.function(type=${pl}.FunctionType.InCore)\n    def k(self, win: ${annotation}):\n        pass\n`;

describe('imports', () => {
  it('reads a renamed pypto.language and pypto.language.distributed as pl / pld', () => {
    const m = parseModule(
      `import pypto.language as pyl\nimport pypto.language.distributed as dist\n${KERNEL('pyl', 'dist.DistributedTensor[[1, 8], pyl.FP32]')}`,
      'a.py',
    );
    const f = m.programs[0]!.functions[0]!;
    expect(f.funcKind).toBe('InCore');
    expect(ty(f.params[0]!.type)).toBe('DTensor[[1, 8], <pl.DataType.FP32>]');
    expect(m.spell).toEqual({ pl: 'pyl', pld: 'dist' });
  });

  it('reads members imported by name (DistributedTensor is window-bound)', () => {
    const m = parseModule(
      'from pypto import language as L\nfrom pypto.language import FP32\nfrom pypto.language.distributed import DistributedTensor\n' +
        KERNEL('L', 'DistributedTensor[[1, 8], FP32]'),
      'b.py',
    );
    expect(ty(m.programs[0]!.functions[0]!.params[0]!.type)).toBe('DTensor[[1, 8], <pl.DataType.FP32>]');
  });

  it('does not read a decorator spelled pl. when pl is not pypto.language', () => {
    const m = parseModuleIsolated(`import pypto.language as pyl\nimport numpy as pl\n${KERNEL('pl', 'pyl.Tensor[[8], pyl.FP32]')}`, 'c.py');
    expect(m.programs).toEqual([]);
    expect(m.problems?.map((d) => d.code)).toEqual(['no-program']);
  });

  it('says at each decorator spelled pl. that no import binds pl (Python raises NameError there), not "no program"', () => {
    const text = `import pypto.language as pyl\n\n${KERNEL('pl', 'pyl.Tensor[[8], pyl.FP32]')}`;
    const m = parseModuleIsolated(text, 'e.py');
    expect(m.programs).toEqual([]);
    expect(m.problems?.map((d) => [d.code, d.location?.start])).toEqual([
      ['unbound-decorator', text.indexOf('@pl.program')],
      ['unbound-decorator', text.indexOf('@pl.function')],
    ]);
    expect(m.problems?.[0]?.message).toContain("pypto.language is imported here as 'pyl'");
    // `pl` bound otherwise (an assignment, a function): nothing PyPTO's to say of it.
    for (const binding of ['pl = object()\n', 'def pl():\n    pass\n']) {
      const other = parseModuleIsolated(`import pypto.language as pyl\n${binding}${KERNEL('pl', 'pyl.Tensor[[8], pyl.FP32]')}`, 'f.py');
      expect(other.problems?.map((d) => d.code)).toEqual(['no-program']);
    }
  });

  it('warns about imports it cannot follow', () => {
    const m = parseModuleIsolated('import pypto.language\nfrom pypto.language import *\n', 'd.py');
    expect(m.problems?.map((d) => [d.severity, d.code])).toEqual([
      ['warning', 'unfollowed-import'],
      ['warning', 'unfollowed-import'],
      ['note', 'no-program'],
    ]);
  });

  it('respells inserted text with the module names', () => {
    expect(respell('pl.system.fence()', { pl: 'pyl', pld: 'dist' })).toBe('pyl.system.fence()');
    expect(respell('pld.system.notify(x.pl.y)', { pl: 'pyl', pld: 'dist' })).toBe('dist.system.notify(x.pl.y)');
  });
});

describe('errors stay local', () => {
  const src =
    'import pypto.language as pl\n\n' +
    '@pl.program\nclass A:\n' +
    '    @pl.function\n    def good(self):\n        pass\n\n' +
    '    @pl.function\n    def bad(self):\n        x = lambda: 1\n\n' +
    '@pl.program\nclass B:\n    X = 1\n\n' +
    '@pl.program\nclass C:\n    @pl.function\n    def other(self):\n        y = a[1:2:3]\n\n' +
    '@pl.jit.incore\ndef k(x: pl.Tensor[[8], pl.FP32]):\n    pass\n';

  it('reads every other program and function, and reports each error located', () => {
    const m = parseModuleIsolated(src, 'e.py');
    expect(m.programs.map((p) => [p.name, p.functions.map((f) => f.name)])).toEqual([
      ['A', ['good']],
      ['C', []],
      ['jit', ['k']],
    ]);
    const lines = moduleErrors(m).map((d) => d.location!.source.position(d.location!.start).line);
    expect(lines).toEqual([11, 15, 21]);
    expect(m.stats).toEqual({ programs: 3, programsWithErrors: 3, jitKernels: 1, jitKernelsWithErrors: 0 });
  });

  it('parseModule (strict) throws every error at once', () => {
    expect(() => parseModule(src, 'e.py')).toThrow(/lambda[\s\S]*only @pl.function[\s\S]*slice step/);
  });
});

describe('decorator spellings (issue 28 item 8, issue 34 item 7)', () => {
  const K = (deco: string, name = 'k'): string => `${deco}\ndef ${name}(x: pl.Tensor[[8], pl.FP32]):\n    return x\n`;
  const kinds = (text: string): [string, string][] =>
    parseModule(text, 'j.py').programs.flatMap((p) => p.functions.map((f): [string, string] => [f.name, f.funcKind]));

  it('reads the jit object imported from pypto.jit / pypto.jit.decorator, and its kinds', () => {
    const text =
      'import pypto.language as pl\nfrom pypto.jit.decorator import jit\nfrom pypto.jit import jit as j2\n\n' +
      K('@jit', 'a') +
      K('@jit.incore(level=pl.Level.AIV)', 'b') +
      K('@jit.host', 'c') +
      K('@j2.inline', 'd') +
      K('@jit.opaque()', 'e');
    expect(kinds(text)).toEqual([
      ['a', 'Orchestration'],
      ['b', 'InCore'],
      ['c', 'Opaque'],
      ['d', 'Inline'],
      ['e', 'Opaque'],
    ]);
  });

  it('reads module aliases of pypto.jit and the parser decorators, and prints the pl. spelling', () => {
    const text =
      'import pypto.language as pl\nimport pypto.jit as pj\nfrom pypto import jit as jm\nfrom pypto.language.parser.decorator import inline as inl\n\n' +
      K('@pj.jit.incore', 'a') +
      K('@jm.jit', 'b') +
      K('@inl', 'c') +
      K('@pypto.jit.decorator.jit.inline', 'd');
    const m = parseModule(text, 'j.py');
    expect(kinds(text)).toEqual([
      ['a', 'InCore'],
      ['b', 'Orchestration'],
      ['c', 'Inline'],
      ['d', 'Inline'],
    ]);
    expect(m.programs[0]!.functions.map((f) => (f.jit ? dotted(f.jit) : null))).toEqual([
      'pl.jit.incore',
      'pl.jit',
      'pl.inline',
      'pl.jit.inline',
    ]);
  });

  it('reads a decorator in parentheses, split by a continuation, or past 64 characters', () => {
    const alias = 'a'.repeat(80);
    const text =
      `import pypto.language as pl\nimport pypto.language as ${alias}\n\n` +
      K('@(pl.jit.incore)', 'a') +
      K('@pl.jit.\\\n    incore', 'b') +
      K(`@${alias}.jit.incore`, 'c') +
      `@(${alias}.program)\nclass P:\n    @pl.function\n    def f(self):\n        pass\n` +
      '@pl.\\\nprogram\nclass Q:\n    @pl.function\n    def f(self):\n        pass\n';
    const m = parseModule(text, 'j.py');
    expect(m.programs.map((p) => p.name)).toEqual(['P', 'Q', 'jit']);
    expect(kinds(text).filter(([n]) => n !== 'f')).toEqual([
      ['a', 'InCore'],
      ['b', 'InCore'],
      ['c', 'InCore'],
    ]);
  });

  it('reads @pl.function and @pl.inline defined in a builder function; a call of the helper is a call of it', () => {
    const text =
      'import pypto.language as pl\n\ndef build():\n' +
      '    @pl.inline\n    def h(x: pl.Tensor[[8], pl.FP32]):\n        return x\n\n' +
      '    @pl.function(type=pl.FunctionType.InCore)\n    def k(x: pl.Tensor[[8], pl.FP32]):\n        x = h(x)\n        return x\n';
    const m = parseModule(text, 'b.py');
    const fs = m.programs.flatMap((p) => p.functions);
    expect(fs.map((f) => [f.name, f.funcKind])).toEqual([
      ['h', 'Inline'],
      ['k', 'InCore'],
    ]);
    const call = fs[1]!.body[0]!;
    expect(call.kind === 'Assign' && call.value.kind === 'Call' ? call.value.callee : null).toMatchObject({ kind: 'self', name: 'h' });
  });
});

describe('issue 28 item 13', () => {
  it('reads an f-string in pl.static_print and prints it back as one', async () => {
    const { printModule } = await import('../../src/ir/print.js');
    const text =
      'import pypto.language as pl\n\n@pl.jit.incore\ndef k(x: pl.Tensor[[8], pl.FP32]):\n    pl.static_print(f"input: {x}")\n    return x\n';
    const m = parseModule(text, 'f.py');
    expect(printModule(m)).toContain('pl.static_print(f"input: {x}")');
    expect(printModule(parseModule(printModule(m), 'g.py'))).toBe(printModule(m));
  });

  it('a core_type from a test parameter is said to be unknown, not a wrong value', () => {
    const text =
      'import pypto.language as pl\n\ndef test(core_type):\n    @pl.jit.extern(core_type=core_type, source="k.cpp")\n    def k(a: pl.Tensor):\n        ...\n';
    const m = parseModuleIsolated(text, 'e.py');
    expect(moduleErrors(m).map((d) => d.message)).toEqual([
      "@pl.jit.extern core_type is 'core_type', whose value ptolog cannot know where it reads the kernel (a parameter or variable of the enclosing code): write the core type as a literal, 'aic', 'aiv' or 'mixed'",
    ]);
  });
});
