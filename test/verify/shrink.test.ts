/**
 * Counterexamples are shrunk to the statements the failure needs (src/verify/shrink.ts): a rule
 * set missing one marker rule yields a counterexample of at most 6 statements; the delta
 * debugger itself removes every statement a failure does not need.
 */

import { describe, expect, it } from 'vitest';
import { passByName } from '../../src/passes/registry.js';
import { Runner } from '../../src/runner/runner.js';
import { shrinkStatements, statementCount } from '../../src/verify/shrink.js';
import { verify } from '../../src/verify/verify.js';
import { session } from '../session.js';
import { mutantRoot } from './mutant-rules.js';

const comm = passByName('insert-comm-fence')!;

describe('shrinking', () => {
  it('removes every statement and function the predicate does not need, and unwraps compound statements', () => {
    const text = [
      'import pypto.language as pl',
      '',
      '@pl.program',
      'class P:',
      '    @pl.function(type=pl.FunctionType.InCore)',
      '    def a(self, x: pl.Tensor[[8], pl.FP32], c: pl.Scalar[pl.BOOL]):',
      '        v = pl.tensor.read(x, [0])',
      '        for i in pl.range(4):',
      '            if c:',
      '                pl.system.fence()',
      '                w = pl.tensor.read(x, [1])',
      '            pl.system.cacheinvalid()',
      '',
      '    @pl.function(type=pl.FunctionType.InCore)',
      '    def b(self, x: pl.Tensor[[8], pl.FP32]):',
      '        pl.system.fence()',
      '',
    ].join('\n');
    const small = shrinkStatements(text, (t) => t.includes('pl.tensor.read(x, [1])'));
    expect(statementCount(small)).toBe(1);
    expect(small).toMatch(/def a\(.*\):\n {8}w = pl\.tensor\.read\(x, \[1\]\)\n?$/s);
    expect(small).not.toContain('def b');
  });

  it('a rule set without the fence after a remote write: a counterexample of at most 6 statements with one remote write', () => {
    const r = verify({
      runner: new Runner({ passes: [comm], session, rulesRoot: mutantRoot('no fence after a remote write') }),
      seed: 1,
      timeoutMs: 86_400_000,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure.property).toBe('sound');
    expect(statementCount(r.counterexample)).toBeLessThanOrEqual(6);
    expect(r.counterexample).toMatch(/pld\.(tile\.remote_store|tile\.put|tensor\.put)\(/);
  }, 600_000);

  it('a rule set without the invalidate after a wait: a counterexample of at most 6 statements, a wait and a read', () => {
    const r = verify({
      runner: new Runner({ passes: [comm], session, rulesRoot: mutantRoot('no whole-GM invalidate after a wait') }),
      seed: 1,
      timeoutMs: 86_400_000,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure.property).toBe('sound');
    expect(statementCount(r.counterexample)).toBeLessThanOrEqual(6);
    expect(r.counterexample).toContain('pld.system.wait(');
    expect(r.counterexample).toMatch(/pl\.(tensor\.read|load)\(/);
  }, 600_000);
});
