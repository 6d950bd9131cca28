/**
 * The cache-policy semantic check (src/verify/cache-policy.ts): the model names every error of
 * the contract at its declaration and the `cache=` each load carries after apply (own first,
 * then the kernel scope's first valid declaration by binding identity, then the outlined
 * kernel's attribute; hierarchy scopes stamp nothing); `verify` catches rule mutants that stamp
 * wrongly or miss an error, and passes the shipped rules.
 */

import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseModule } from '../../src/frontend/index.js';
import { cacheExpectation } from '../../src/verify/cache-policy.js';
import { session as ruleSession } from '../session.js';
import { MUTANTS, mutantRoot } from './mutant-rules.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), ruleSession });
  return { code, out, err };
}

const T = 'pl.Tensor[[64, 64], pl.FP32]';
/** A module whose `main` has tensors t0, t1, a scalar s and `out`; `body` is indented 8 spaces. */
function module(body: string[], kernel: string[] = []): string {
  return [
    'import pypto.language as pl',
    '',
    '@pl.program',
    'class Gen:',
    ...kernel.map((l) => `    ${l}`),
    '    @pl.function',
    `    def main(self, t0: ${T}, t1: ${T}, out: pl.Out[${T}], s: pl.Scalar[pl.INT32]):`,
    ...body.map((l) => `        ${l}`),
    '',
  ].join('\n');
}
const expectation = (text: string) => cacheExpectation(parseModule(text, 'gen.py'));
const load = (t: string, own = ''): string => `v = pl.load(${t}, [0, 0], [16, 16]${own})`;

describe('the cache-policy model', () => {
  it('names each error at its declaration', () => {
    const text = module([
      'with pl.at(level=pl.Level.CORE_GROUP):', // 7
      '    pl.set_cache_policy(t0, pl.CachePolicy.BYPASS, 1)', // 8 arity
      '    pl.set_cache_policy(t0 + t1, pl.CachePolicy.BYPASS)', // 9 not-a-name
      '    pl.set_cache_policy(zz, pl.CachePolicy.BYPASS)', // 10 undefined
      '    pl.set_cache_policy(s, pl.CachePolicy.BYPASS)', // 11 not-a-tensor
      '    pl.set_cache_policy(t1, 2)', // 12 bad-policy
      '    pl.set_cache_policy(t0, pl.CachePolicy.BYPASS)', // 13 bypass-written
      '    pl.store(pl.load(t0, [0, 0], [16, 16]), [0, 0], t0)',
      'with pl.cluster():', // 15
      `    pl.set_cache_policy(t0, 1)`, // 16 no-scope
      'with pl.at(level=pl.Level.CORE_GROUP):', // 17
      '    if s > 0:',
      '        pl.set_cache_policy(t0, 1)', // 19 placement
      '    pl.set_cache_policy(t1, 0)', // 20 not-captured
      `    ${load('t0')}`,
      'pl.set_cache_policy(t0, 1)', // 22 placement
    ]);
    expect(expectation(text).errors).toEqual([
      '10: cache-policy-undefined',
      '11: cache-policy-not-a-tensor',
      '12: cache-policy-bad-policy',
      '13: cache-policy-bypass-written',
      '16: cache-policy-no-scope',
      '19: cache-policy-placement',
      '20: cache-policy-not-captured',
      '22: cache-policy-placement',
      '8: cache-policy-arity',
      '9: cache-policy-not-a-name',
    ]);
  });

  it('stamps own cache= first, then the first declaration by binding, then the outlined attribute; hierarchy scopes nothing', () => {
    const text = module(
      [
        'with pl.at(level=pl.Level.CORE_GROUP):',
        `    ${load('t0')}`,
        `    ${load('t0', ', cache=pl.CachePolicy.DEFAULT')}`,
        '    pl.set_cache_policy(t0, pl.CachePolicy.BYPASS)',
        '    pl.set_cache_policy(t0, 0)',
        '    t0 = t1',
        `    ${load('t0')}`,
        'with pl.at(level=pl.Level.HOST):',
        '    pl.set_cache_policy(t1, 1)',
        `    ${load('t1')}`,
      ],
      [
        '@pl.function(type=pl.FunctionType.InCore)',
        `def kernel(self, t0: ${T}, t1: ${T}):`,
        '    pl.func_attr({"cache_policy": [(1, 1), (1, 0)]})',
        `    ${load('t0')}`,
        `    ${load('t1')}`,
        '',
      ],
    );
    expect(expectation(text)).toEqual({
      errors: [],
      stamps: [null, 'pl.CachePolicy.BYPASS', 'pl.CachePolicy.BYPASS', 'pl.CachePolicy.DEFAULT', null, null],
    });
  });
});

// A test asserts behaviour, not speed: a day for each apply.
const NO_TIME_LIMIT = ['--timeout', '86400'];

describe('verify checks the cache policy', () => {
  for (const m of MUTANTS.filter((x) => x.contract === 'cache-policy')) {
    it(`a rules copy where "${m.name}" fails verify --pass cache-policy`, async () => {
      const r = await run(['verify', '--pass', 'cache-policy', '--rules-root', mutantRoot(m.name), '--seed', '1', ...NO_TIME_LIMIT]);
      expect(r.err).toBe('');
      expect(r.out).toMatch(/^verify failed: (cache-policy|applies|idempotent): /);
      expect(r.code).toBe(1);
    }, 600_000);
  }

  it('the shipped rules pass the cache-policy check, refusing none of the programs', async () => {
    const r = await run(['verify', '--pass', 'cache-policy', '--runs', '60', '--seed', '20261204', ...NO_TIME_LIMIT]);
    expect(r.out).toMatch(
      /^verified 60 programs: idempotent, conservative, re-parses, cache-policy \(soundness is checked for insert-comm-fence, which is not selected\)\nrewritten by the rules: \d+ \(\d+%\); refused with errors \(nothing to check\): 0 \(0%\)\n$/,
    );
    expect(r.code).toBe(0);
  }, 600_000);
});
