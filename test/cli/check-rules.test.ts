/**
 * check-rules names the contracts a rule file really extends (by their manifests' names): those
 * whose rules it includes (`"..."` or `<ptolog/...>`), or whose rules read what it derives.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tree } from './helpers.js';

async function check(text: string): Promise<{ code: number; out: string; err: string }> {
  const dir = tree({ 'ext.dl': text });
  return run(['check-rules', join(dir, 'ext.dl')]);
}

describe('check-rules', () => {
  it('a fact for a relation one contract reads extends that contract only', async () => {
    const r = await check('wait_op("pld.system.barrier").\n');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^ok: checked as an extension of insert-comm-fence \(its rules read wait_op; as --rules loads it\): 1 fact, 0 rules, 0 warnings$/m,
    );
  });

  it('recognises #include <ptolog/...> of a contract: an extension of that contract', async () => {
    const r = await check('#include <ptolog/insert_comm_fence/insert_comm_fence.dl>\nwait_op("pld.system.barrier").\n');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ok: checked as an extension of insert-comm-fence \(it includes its rules;/m);
  });

  it('#include <ptolog/lib.dl> with a finding rule extends every contract, all named', async () => {
    const r = await check('#include <ptolog/lib.dl>\nfinding("missing-marker", "error", S, "x") :- loop(S, "parallel").\n');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^ok: checked as an extension of cache-policy, expand-manual-phase-fence and insert-comm-fence \(their rules read finding;/m,
    );
  });

  it('#include <ptolog/lib.dl> with relations of its own is a program of its own, and says no contract reads them', async () => {
    const r = await check('#include <ptolog/lib.dl>\n.decl par(s: StmtId)\npar(S) :- loop(S, "parallel").\n.output par\n');
    expect(r.code).toBe(0);
    expect(r.out).toContain("note: no contract's rules read what these rules derive (par)");
    expect(r.out).toMatch(/^ok: \d+ relations, \d+ rules/m);
    expect(r.out).not.toContain('extension of');
  });

  it('an error in a file including <ptolog/lib.dl> is located in it (exit 2)', async () => {
    const r = await check('#include <ptolog/lib.dl>\n.decl par(s: StmtId)\npar(S) :- loop(S, "parallel"), wait_opp(S).\n.output par\n');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ext\.dl:3:\d+: error\[undeclared-relation\]/);
  });

  it("a contract's own rule file is checked as the program it is", async () => {
    const r = await run(['check-rules', 'rules/insert_comm_fence/insert_comm_fence.dl']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ok: \d+ relations/m);
  });
});
