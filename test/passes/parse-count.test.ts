// How often a run parses the text: once, its passes sharing the tree (the `tree` policy, and the
// `stream` one below STREAM_FROM_CHARS); read streaming, once when the result names no node and
// twice when it does (the tree is freed while the rules run, then parsed again), per pass.
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
const { PASSES, passByName } = await import('../../src/passes/registry.js');
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

  it('the passes of a run share one parse of a text: an erroneous statement is recovered from once', () => {
    const text = orchestrationText(4);
    expect(auditText(text, 'orch.py', [pass]).length).toBeGreaterThan(0);
    expect(counted(() => auditText(text, 'orch.py', [pass]))).toBe(1);
    expect(counted(() => auditText(text, 'orch.py', PASSES, { stage: 'as-written' }))).toBe(1);
    expect(applyPasses(text, 'orch.py', [pass]).outcomes[0]!.applied).toBeGreaterThan(0);
    expect(counted(() => applyPasses(text, 'orch.py', [pass]))).toBe(1);
    // A text with a statement that does not read: every pass judges the rest, the text parsed once.
    const broken = text.replace('        pass\n', '        x = = 1\n');
    expect(auditText(broken, 'orch.py', PASSES, { stage: 'as-written' }).some((d) => d.severity === 'error')).toBe(true);
    expect(counted(() => auditText(broken, 'orch.py', PASSES, { stage: 'as-written' }))).toBe(1);
    // Apply parses the text each pass leaves once, and the original once.
    const r = applyPasses(text, 'orch.py', PASSES);
    const changedTexts = r.outcomes.filter((o) => o.applied > 0).length;
    expect(counted(() => applyPasses(text, 'orch.py', PASSES))).toBeLessThanOrEqual(1 + changedTexts);
  });

  it('read streaming (large files), each analysis parses it: twice when findings are located or edits applied', () => {
    const lazyBlocks = { minGroups: 2, chunkGroups: 1 };
    const text = orchestrationText(4);
    expect(counted(() => auditText(text, 'orch.py', [pass], { lazyBlocks }))).toBe(2);
    expect(counted(() => applyPasses(text, 'orch.py', [pass], { lazyBlocks }))).toBe(2);
  });
});
