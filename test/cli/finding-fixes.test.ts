/**
 * Findings carry the fix the rules pair them with: compressible-fanout's edits (the barrier
 * and the consumers' deps, `finding_edit`) as JSON `fixEdits` and SARIF `fixes`, the text
 * `apply` writes; messages do not repeat the location the diagnostic already has.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';

interface Wire {
  code: string;
  message: string;
  fix?: string;
  fixEdits?: { startOffset: number; endOffset: number; text: string }[];
}

/** `text` with the byte edits applied. */
function applyEdits(text: string, edits: readonly { startOffset: number; endOffset: number; text: string }[]): string {
  let out = Buffer.from(text);
  for (const e of [...edits].sort((a, b) => b.startOffset - a.startOffset)) {
    out = Buffer.concat([out.subarray(0, e.startOffset), Buffer.from(e.text), out.subarray(e.endOffset)]);
  }
  return out.toString();
}

describe('compressible-fanout fix', () => {
  it('JSON fixEdits are the edits apply makes for it', async () => {
    const r = await run(['audit', '--format', 'json', 'examples/phase_fence.py']);
    const ds = (JSON.parse(r.out) as { diagnostics: Wire[] }).diagnostics.filter((d) => d.code === 'compressible-fanout');
    expect(ds).toHaveLength(1);
    const d = ds[0]!;
    expect(d.fix).toBe(
      'insert the barrier `phase_fence_barrier_0_tid = pl.system.task_dummy(deps=[stage_a_done])` before the loop and make the consumers depend on it',
    );
    expect(d.fixEdits).toHaveLength(2);
    const applied = await run(['apply', 'examples/phase_fence.py']);
    expect(applied.code).toBe(0);
    expect(applyEdits(readFileSync('examples/phase_fence.py', 'utf8'), d.fixEdits!)).toBe(applied.out);
  });

  it('SARIF has a fix with both replacements, its text after the message as a sentence', async () => {
    const r = await run(['audit', '--format', 'sarif', 'examples/phase_fence.py']);
    const results = (JSON.parse(r.out) as { runs: { results: unknown[] }[] }).runs[0]!.results as Array<{
      ruleId: string;
      message: { text: string };
      fixes?: { description: { text: string }; artifactChanges: { replacements: { insertedContent: { text: string } }[] }[] }[];
    }>;
    const f = results.find((x) => x.ruleId === 'compressible-fanout')!;
    expect(f.message.text).toMatch(/ barrier\. Fix: insert the barrier `phase_fence_barrier_0_tid = .*depend on it\.$/);
    const reps = f.fixes![0]!.artifactChanges[0]!.replacements.map((x) => x.insertedContent.text);
    expect(reps).toEqual([
      '            phase_fence_barrier_0_tid = pl.system.task_dummy(deps=[stage_a_done])\n',
      '                out, tid_b = pl.submit(self.stripe, out, row, out, deps=[phase_fence_barrier_0_tid])\n',
    ]);
  });
});

describe('messages', () => {
  it('CacheBypassUnsupported does not repeat its location', async () => {
    const r = await run(['audit', '--format', 'json', 'examples/cache_bypass.py']);
    const ds = (JSON.parse(r.out) as { diagnostics: Wire[] }).diagnostics.filter((d) => d.code === 'CacheBypassUnsupported');
    expect(ds.length).toBeGreaterThan(0);
    for (const d of ds) {
      expect(d.message).not.toContain('cache_bypass.py');
      expect(d.message).toMatch(/: it compiles as an ordinary cached access$/);
    }
  });
});
