/**
 * InsertCommFence properties on generated communication kernels (src/gen/comm.ts), through
 * the checks of `ptolog verify` (src/verify/checks.ts, one implementation): termination,
 * re-parse, conservation and idempotence of the rewrite; soundness against the abstract
 * machine (src/verify/machine), an oracle independent of the rules: apply's output is never
 * racy, and the audit reports a finding on every line the machine finds racy. Also: the
 * contract audit is clean after apply, and Orchestration functions receive markers only in the
 * kernels PyPTO outlines from them (CORE_GROUP pl.at, pl.spmd bodies).
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { arbCommProgram, commModuleText } from '../../src/gen/comm.js';
import { joinWithSemicolons } from '../../src/gen/respell.js';
import { structurallyEqual } from '../../src/ir/equal.js';
import type { Stmt } from '../../src/ir/nodes.js';
import { printProgram } from '../../src/ir/print.js';
import { childBodies } from '../../src/ir/visit.js';
import { applyPasses, auditText } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { Runner } from '../../src/runner/runner.js';
import { checkProgram } from '../../src/verify/checks.js';
import { moduleRaces } from '../../src/verify/machine/index.js';
import { runs as scaled } from '../runs.js';
import { session } from '../session.js';

// A test asserts behaviour, not speed: no time limit on an apply (termination is the rules' tuple bounds' and vitest's concern).
const NO_TIME_LIMIT = Number.POSITIVE_INFINITY;

const pass = passByName('insert-comm-fence')!;
const applyOnce = (text: string): string => applyPasses(text, 'gen.py', [pass], { session }).text;
const runs = scaled(60);

/** A kernel PyPTO outlines from an orchestration body: a CORE_GROUP pl.at, a pl.spmd body. */
function isKernelScope(s: Stmt): boolean {
  if (s.kind === 'For') return s.loopKind === 'spmd';
  if (s.kind !== 'Scope') return false;
  if (s.scope === 'spmd') return true;
  const level = s.kwargs.find((k) => k.name === 'level')?.value ?? s.args[0];
  return s.scope === 'at' && level?.kind === 'Enum' && level.member === 'CORE_GROUP';
}

/** Marker statements of function funcName, outside the kernels PyPTO outlines from it. */
function markerCount(text: string, funcName: string): number {
  const m = parseModule(text, 'gen.py');
  let n = 0;
  const count = (body: readonly Stmt[]): void => {
    for (const s of body) {
      if (s.kind === 'ExprStmt' && s.value.kind === 'Call' && s.value.callee.kind === 'op' && s.value.callee.name.startsWith('system.'))
        n++;
      if (!isKernelScope(s)) for (const b of childBodies(s)) count(b);
    }
  };
  for (const p of m.programs) for (const f of p.functions) if (f.name === funcName) count(f.body);
  return n;
}

describe('InsertCommFence properties', () => {
  test.prop([arbCommProgram()], runs)(
    "verify's checks: apply terminates, re-parses, is conservative, idempotent (text and IR) and sound against the abstract machine (its output is not racy; audit reports every racy line)",
    (p) => {
      const r = checkProgram(commModuleText(p, printProgram), new Runner({ passes: [pass], session }), { timeoutMs: NO_TIME_LIMIT });
      expect(r ?? 'ok').toBe('ok');
    },
  );

  it('the soundness oracle is not vacuous: most generated programs are racy before apply', () => {
    const sample = fc.sample(arbCommProgram(), { numRuns: 40, seed: 11 });
    const racy = sample.filter((p) => moduleRaces(parseModule(commModuleText(p, printProgram), 'gen.py')).length > 0).length;
    expect(racy).toBeGreaterThan(20);
  });

  test.prop([arbCommProgram()], runs)('the contract audit agrees with apply: it is clean after apply', (p) => {
    const after = applyOnce(commModuleText(p, printProgram));
    const findings = auditText(after, 'gen.py', [pass], { stage: 'as-written', session });
    expect(findings.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  });

  test.prop([arbCommProgram()], runs)(
    'the default stage (as PyPTO compiles it) reports no error: InsertCommFence repairs every violation',
    (p) => {
      const text = commModuleText(p, printProgram);
      const findings = auditText(text, 'gen.py', [pass], { session });
      expect(findings.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      // Each missing marker is a note there, and a warning as written.
      const asWritten = auditText(text, 'gen.py', [pass], { stage: 'as-written', session });
      const notes = findings.filter((d) => d.code === 'missing-marker');
      expect(notes.every((d) => d.severity === 'note')).toBe(true);
      expect(notes.length).toBe(asWritten.filter((d) => d.code === 'missing-marker' && d.severity === 'warning').length);
    },
  );

  test.prop([arbCommProgram(), fc.nat()], scaled(20))(
    'on programs written with `;`: the same program; apply is idempotent and the audit clean after it',
    (p, seed) => {
      const canonical = commModuleText(p, printProgram);
      const text = joinWithSemicolons(canonical, seed);
      expect(structurallyEqual(parseModule(text, 'gen.py').programs, parseModule(canonical, 'gen.py').programs)).toBe(true);
      const once = applyOnce(text);
      expect(applyOnce(once)).toBe(once);
      expect(auditText(once, 'gen.py', [pass], { stage: 'as-written', session }).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      // The markers are the ones the canonical text gets: same program after apply.
      expect(structurallyEqual(parseModule(once, 'gen.py').programs, parseModule(applyOnce(canonical), 'gen.py').programs)).toBe(true);
    },
    180_000,
  );

  it('the `;` generator joins statements (not vacuous)', () => {
    const sample = fc.sample(fc.tuple(arbCommProgram(), fc.nat()), { numRuns: 20, seed: 5 });
    const joined = sample.filter(([p, s]) =>
      /; /.test(joinWithSemicolons(commModuleText(p, printProgram), s).replace(/"[^"]*"/g, '')),
    ).length;
    expect(joined).toBeGreaterThan(15);
  });

  it('is not vacuous: before apply, the audit finds something in most generated programs', () => {
    const sample = fc.sample(arbCommProgram(), { numRuns: 40, seed: 11 });
    const flagged = sample.filter((p) => auditText(commModuleText(p, printProgram), 'gen.py', [pass], { session }).length > 0).length;
    expect(flagged).toBeGreaterThan(20);
  });

  test.prop([arbCommProgram()], runs)('Orchestration functions receive markers only in the kernels PyPTO outlines from them', (p) => {
    const text = commModuleText(p, printProgram);
    expect(markerCount(applyOnce(text), 'main')).toBe(markerCount(text, 'main'));
  });
});
