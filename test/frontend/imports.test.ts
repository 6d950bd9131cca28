/** Names through the module's imports, and programs / functions read on their own. */
import { describe, expect, it } from 'vitest';
import { parseModule, parseModuleIsolated, moduleErrors } from '../../src/frontend/index.js';
import { respell } from '../../src/frontend/imports.js';
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
