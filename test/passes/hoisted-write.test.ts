/**
 * A publishing write written as the value of `return` or as an argument of `pl.yield_`: PyPTO's
 * FlattenCallExpr makes it a statement of its own (`t__tmp_v0 = call`) before InsertCommFence
 * runs, so the pass inserts markers after it. `apply` does the same (hoist_call edit): the text
 * re-parses to the tree it rewrote, a second apply changes nothing, and the output is clean.
 */
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { structurallyEqual } from '../../src/ir/equal.js';
import { auditText } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import { Runner } from '../../src/runner/runner.js';
import { runPipeline } from '../../src/verify/checks.js';

const comm = passByName('insert-comm-fence')!;
const run = { session: new RuleSession() };

const SOURCE = `import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], t__tmp_v3: pl.Scalar[pl.INDEX]) -> pld.DistributedTensor[[1, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
        for i, (w,) in pl.range(4, init_values=(win,)):
            w2 = pl.yield_(pl.store(t, [0, 0], w))
        if t__tmp_v3 > 0: return pl.store(t, [0, 0], w2)
        return pl.store(t, [0, 0], w2)
`;

describe('a write as the value of return / pl.yield_', () => {
  it('is reported where PyPTO inserts its markers', () => {
    const ds = auditText(SOURCE, 'k.py', [comm], run).filter((d) => d.code === 'missing-marker');
    expect(ds.map((d) => d.location?.source.lineOf(d.location.start))).toEqual([11, 12, 13]);
  });

  it('apply hoists it into a fresh temporary with the markers after it, re-parses, and is idempotent and clean', () => {
    const [r] = runPipeline(SOURCE, new Runner({ passes: [comm], ...run }));
    const out = r!.output;
    expect(out).toContain(
      [
        '            t__tmp_v4 = pl.store(t, [0, 0], w)',
        '            pl.system.cacheinvalid(w, [1, 8], [0, 0])',
        '            pl.system.fence()',
        '            w2 = pl.yield_(t__tmp_v4)',
      ].join('\n'),
    );
    expect(out).toContain(
      [
        '        if t__tmp_v3 > 0:',
        '            t__tmp_v5 = pl.store(t, [0, 0], w2)',
        '            pl.system.cacheinvalid(w2, [1, 8], [0, 0])',
        '            pl.system.fence()',
        '            return t__tmp_v5',
        '        t__tmp_v6 = pl.store(t, [0, 0], w2)',
        '        pl.system.cacheinvalid(w2, [1, 8], [0, 0])',
        '        pl.system.fence()',
        '        return t__tmp_v6',
      ].join('\n'),
    );
    expect(structurallyEqual(parseModule(out, 'k.py').programs, r!.programs)).toBe(true);
    const [again] = runPipeline(out, new Runner({ passes: [comm], ...run }));
    expect(again!.edits).toBe(0);
    expect(auditText(out, 'k.py', [comm], run)).toEqual([]);
    expect(auditText(out, 'k.py', [comm], { ...run, stage: 'as-written' })).toEqual([]);
  });
});
