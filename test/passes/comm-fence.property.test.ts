/**
 * InsertCommFence properties on generated communication kernels (src/gen/comm.ts):
 * idempotence, soundness (the contract audit is clean after apply), conservation (removing
 * the inserted lines gives back the input), Orchestration functions never receive markers,
 * and the patched text re-parses to the tree the rewriter produced.
 */
import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { arbCommProgram, commModuleText } from '../../src/gen/comm.js';
import { printProgram } from '../../src/ir/print.js';
import { parseModule } from '../../src/frontend/index.js';
import { analyze } from '../../src/passes/analyze.js';
import { readEdits } from '../../src/passes/read-edits.js';
import { rewrite } from '../../src/rewrite/rewrite.js';
import { removeLines } from '../../src/rewrite/patch.js';
import { structurallyEqual, stripSpans } from '../../src/ir/equal.js';
import { applyPasses, auditText } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { walkStmts } from '../../src/ir/visit.js';
import { joinWithSemicolons } from '../../src/gen/respell.js';

const pass = passByName('insert-comm-fence')!;
const applyOnce = (text: string): string => applyPasses(text, 'gen.py', [pass]).text;
const runs = { numRuns: 60 };

function markerCount(text: string, funcName: string): number {
  const m = parseModule(text, 'gen.py');
  let n = 0;
  for (const p of m.programs) {
    for (const f of p.functions) {
      if (f.name !== funcName) continue;
      walkStmts(f.body, (s) => {
        if (s.kind === 'ExprStmt' && s.value.kind === 'Call' && s.value.callee.kind === 'op' && s.value.callee.name.startsWith('system.')) n++;
      });
    }
  }
  return n;
}

describe('InsertCommFence properties', () => {
  test.prop([arbCommProgram()], runs)('apply is idempotent', (p) => {
    const once = applyOnce(commModuleText(p, printProgram));
    expect(applyOnce(once)).toBe(once);
  });

  test.prop([arbCommProgram()], runs)('the contract audit is clean after apply', (p) => {
    const after = applyOnce(commModuleText(p, printProgram));
    const findings = auditText(after, 'gen.py', [pass]);
    expect(findings.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  });

  test.prop([arbCommProgram()], runs)('removing the inserted lines gives back the input; the text re-parses to the rewritten tree', (p) => {
    const text = commModuleText(p, printProgram);
    const m = parseModule(text, 'gen.py');
    const a = analyze(m, pass.entry);
    const r = rewrite(m, a.table, readEdits(a.result));
    expect(removeLines(r.text, r.insertedLines)).toBe(text);
    const reparsed = parseModule(r.text, 'gen.py');
    const same = structurallyEqual(reparsed.programs, r.module.programs);
    if (!same) expect(stripSpans(reparsed.programs)).toEqual(stripSpans(r.module.programs));
  });

  test.prop([arbCommProgram(), fc.nat()], { numRuns: 20 })('on programs written with `;`: the same program; apply is idempotent and the audit clean after it', (p, seed) => {
    const canonical = commModuleText(p, printProgram);
    const text = joinWithSemicolons(canonical, seed);
    expect(structurallyEqual(parseModule(text, 'gen.py').programs, parseModule(canonical, 'gen.py').programs)).toBe(true);
    const once = applyOnce(text);
    expect(applyOnce(once)).toBe(once);
    expect(auditText(once, 'gen.py', [pass]).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
    // The markers are the ones the canonical text gets: same program after apply.
    expect(structurallyEqual(parseModule(once, 'gen.py').programs, parseModule(applyOnce(canonical), 'gen.py').programs)).toBe(true);
  }, 180_000);

  it('the `;` generator joins statements (not vacuous)', () => {
    const sample = fc.sample(fc.tuple(arbCommProgram(), fc.nat()), { numRuns: 20, seed: 5 });
    const joined = sample.filter(([p, s]) => /; /.test(joinWithSemicolons(commModuleText(p, printProgram), s).replace(/"[^"]*"/g, ''))).length;
    expect(joined).toBeGreaterThan(15);
  });

  it('is not vacuous: before apply, the audit finds something in most generated programs', () => {
    const sample = fc.sample(arbCommProgram(), { numRuns: 40, seed: 11 });
    const flagged = sample.filter((p) => auditText(commModuleText(p, printProgram), 'gen.py', [pass]).length > 0).length;
    expect(flagged).toBeGreaterThan(20);
  });

  test.prop([arbCommProgram()], runs)('Orchestration functions never receive markers', (p) => {
    const text = commModuleText(p, printProgram);
    expect(markerCount(applyOnce(text), 'main')).toBe(markerCount(text, 'main'));
  });
});

