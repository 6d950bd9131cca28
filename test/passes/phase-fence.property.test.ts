/**
 * ExpandManualPhaseFence properties on generated orchestration programs
 * (src/gen/orchestration.ts): idempotence; dependency preservation (every consumer waits on
 * the same producer arrays, directly or through a barrier); round-trip; and only `deps` lists
 * and the inserted barrier lines change in the text.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { arbOrchestrationProgram, orchestrationModuleText } from '../../src/gen/orchestration.js';
import { stripSpans, structurallyEqual } from '../../src/ir/equal.js';
import type { Expr } from '../../src/ir/nodes.js';
import { printProgram } from '../../src/ir/print.js';
import { walkStmts } from '../../src/ir/visit.js';
import { analyze } from '../../src/passes/analyze.js';
import { applyPasses } from '../../src/passes/pipeline.js';
import { readEdits } from '../../src/passes/read-edits.js';
import { passByName } from '../../src/passes/registry.js';
import { removeLines } from '../../src/rewrite/patch.js';
import { rewrite } from '../../src/rewrite/rewrite.js';
import { Runner } from '../../src/runner/runner.js';
import { checkRewrite } from '../../src/verify/checks.js';
import { runs as scaled } from '../runs.js';
import { session } from '../session.js';

// A test asserts behaviour, not speed: no time limit on an apply (termination is the rules' tuple bounds' and vitest's concern).
const NO_TIME_LIMIT = Number.POSITIVE_INFINITY;

const pass = passByName('expand-manual-phase-fence')!;
const runs = scaled(60);
const gen = arbOrchestrationProgram();
const textOf = (p: Parameters<typeof printProgram>[0]): string => orchestrationModuleText(p, printProgram);
const applyOnce = (text: string): string => applyPasses(text, 'gen.py', [pass], { session }).text;

/** For each Submit / launch scope in order, the producer names its deps resolve to (through barriers). */
function dependencySets(text: string): string[][] {
  const m = parseModule(text, 'gen.py');
  const barriers = new Map<string, string[]>();
  const out: string[][] = [];
  const names = (es: readonly Expr[]): string[] =>
    es.flatMap((e) => (e.kind === 'Name' ? (barriers.get(e.id) ?? [e.id]) : ['<expr>'])).sort();
  for (const p of m.programs) {
    for (const f of p.functions) {
      walkStmts(f.body, (s) => {
        if (s.kind === 'Assign' && s.value.kind === 'Call' && s.value.callee.kind === 'op' && s.value.callee.name === 'system.task_dummy') {
          const deps = s.value.kwargs.find((k) => k.name === 'deps')?.value;
          if (deps && deps.kind === 'List' && /^phase_fence_barrier_\d+_tid$/.test(s.targets[0]!.id)) {
            barriers.set(s.targets[0]!.id, names(deps.elts));
          }
        }
        if ((s.kind === 'Assign' || s.kind === 'ExprStmt') && s.value.kind === 'Submit') out.push(names(s.value.deps ?? []));
        if (s.kind === 'Scope' && s.deps) out.push(names(s.deps));
      });
    }
  }
  return out;
}

describe('ExpandManualPhaseFence properties', () => {
  test.prop([gen], runs)('apply terminates, re-parses, is conservative and idempotent (text and IR) — the checks of ptolog verify', (p) => {
    const r = checkRewrite(textOf(p), new Runner({ passes: [pass], session }), { timeoutMs: NO_TIME_LIMIT });
    expect(r === 'refused' || !Array.isArray(r) ? r : 'ok').toBe('ok');
  });

  test.prop([gen], runs)('every consumer depends on the same producer arrays before and after', (p) => {
    const text = textOf(p);
    expect(dependencySets(applyOnce(text))).toEqual(dependencySets(text));
  });

  test.prop([gen], runs)('only deps lists and inserted barrier lines change; the text re-parses to the rewritten tree', (p) => {
    const text = textOf(p);
    const m = parseModule(text, 'gen.py');
    const a = analyze(m, pass.entry, [], { session });
    const r = rewrite(m, a.table, readEdits(a.result));
    const strip = (t: string): string => t.replace(/deps=\[[^\]]*\]/g, 'deps=[]');
    expect(strip(removeLines(r.text, r.insertedLines))).toBe(strip(text));
    for (const l of r.insertedLines)
      expect(r.text.split('\n')[l - 1]).toMatch(/^\s*phase_fence_barrier_\d+_tid = pl\.system\.task_dummy\(deps=\[\w+\]\)$/);
    const reparsed = parseModule(r.text, 'gen.py');
    if (!structurallyEqual(reparsed.programs, r.module.programs)) {
      expect(stripSpans(reparsed.programs)).toEqual(stripSpans(r.module.programs));
    }
  });

  it('is not vacuous: a good share of generated programs get a barrier', () => {
    const sample = fc.sample(gen, { numRuns: 80, seed: 7 });
    const compressed = sample.filter((p) => applyOnce(textOf(p)).includes('phase_fence_barrier_')).length;
    expect(compressed).toBeGreaterThan(8);
  });
});
