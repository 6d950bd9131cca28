// How often a run parses the text: once when the result names no node (nothing to locate or to
// rewrite), twice when it does (the tree is freed while the rules run, then parsed again).
import { describe, expect, it, vi } from 'vitest';

const parses = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../src/frontend/index.js', async (importOriginal) => {
  const frontend = await importOriginal<typeof import('../../src/frontend/index.js')>();
  return {
    ...frontend,
    parseModuleIsolated: (...args: Parameters<typeof frontend.parseModuleIsolated>) => {
      parses.n++;
      return frontend.parseModuleIsolated(...args);
    },
  };
});

const { applyPasses, auditText } = await import('../../src/passes/pipeline.js');
const { passByName } = await import('../../src/passes/registry.js');
const { orchestrationText } = await import('../../src/gen/large.js');

const CLEAN = `import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8], pl.FP32]):
        return x
`;

const pass = passByName('expand-manual-phase-fence')!;

function counted(run: () => unknown): number {
  parses.n = 0;
  run();
  return parses.n;
}

describe('parses per run', () => {
  it('audit and apply parse a file once when there is nothing to report or rewrite', () => {
    expect(auditText(CLEAN, 'clean.py', [pass])).toEqual([]);
    expect(counted(() => auditText(CLEAN, 'clean.py', [pass]))).toBe(1);
    expect(counted(() => applyPasses(CLEAN, 'clean.py', [pass]))).toBe(1);
  });

  it('parse it twice when findings are located or edits applied', () => {
    const text = orchestrationText(4);
    expect(auditText(text, 'orch.py', [pass]).length).toBeGreaterThan(0);
    expect(counted(() => auditText(text, 'orch.py', [pass]))).toBe(2);
    expect(applyPasses(text, 'orch.py', [pass]).outcomes[0]!.applied).toBeGreaterThan(0);
    expect(counted(() => applyPasses(text, 'orch.py', [pass]))).toBe(2);
  });
});
