// The runner every front end uses: its audit is the pipeline's (each finding with its pass), its
// quick fix writes only the edits at one finding (a hoisted call too), its configuration is frozen.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditText } from '../../src/passes/pipeline.js';
import { PASSES, passByName } from '../../src/passes/registry.js';
import { Runner } from '../../src/runner/runner.js';

const ring = readFileSync('examples/ring_allreduce.py', 'utf8');
const comm = passByName('insert-comm-fence')!;

const HOISTED = `import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]) -> pld.DistributedTensor[[1, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
        return pl.store(t, [0, 0], win)
`;

import { session } from '../session.js';

describe('Runner', () => {
  it('audits as the pipeline does, each finding with the pass that derived it', () => {
    const runner = new Runner({ passes: PASSES, session });
    const r = runner.audit(ring, 'ring.py');
    expect([...r.readErrors, ...r.findings]).toEqual(auditText(ring, 'ring.py', PASSES, { session }));
    expect(r.findings.length).toBeGreaterThan(0);
    for (const d of r.findings) expect(PASSES.map((p) => p.name)).toContain(r.passOf.get(d));
  });

  it("fixAt writes only the edits at one finding; apply's text holds them", () => {
    const runner = new Runner({ passes: [comm], session, memory: { kind: 'tree' } });
    const found = runner.audit(ring, 'ring.py').findings.filter((d) => d.code === 'missing-marker');
    expect(found.length).toBeGreaterThan(1);
    const fixed = runner.fixAt(ring, 'ring.py', comm.name, found[0]!.location!.start)!;
    expect(fixed).toBeDefined();
    const added = fixed.split('\n').length - ring.split('\n').length;
    const all = runner.apply(ring, 'ring.py').text;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThan(all.split('\n').length - ring.split('\n').length);
    expect(runner.fixAt(ring, 'ring.py', comm.name, 0)).toBeUndefined();
  });

  it('the quick fix of a write returned as a value hoists it, as apply does', () => {
    const runner = new Runner({ passes: [comm], session, memory: { kind: 'tree' } });
    const d = runner.audit(HOISTED, 'k.py').findings.find((x) => x.code === 'missing-marker')!;
    const fixed = runner.fixAt(HOISTED, 'k.py', comm.name, d.location!.start);
    expect(fixed).toBe(runner.apply(HOISTED, 'k.py').text);
    expect(runner.fixableStarts(HOISTED, 'k.py', comm.name).has(d.location!.start)).toBe(true);
  });

  it('is built from a frozen configuration; with() keeps its rule session', () => {
    const runner = new Runner({ passes: PASSES });
    expect(Object.isFrozen(runner.config)).toBe(true);
    const asWritten = runner.with({ stage: 'as-written' });
    expect(asWritten.session).toBe(runner.session);
    expect(asWritten.config.stage).toBe('as-written');
    expect(runner.config.stage).toBeUndefined();
  });
});
