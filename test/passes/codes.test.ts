// Every code the kernel-reading stages can report is known to suppressions and configuration,
// so `# ptolog: ignore[no-program]` or `severity.not-python = "off"` is never "unknown".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_CODES, knownCodes } from '../../src/passes/codes.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('knownCodes', () => {
  it('holds every code the frontend, the rewriter and the kernel commands report', () => {
    const found = new Set<string>();
    for (const dir of ['src/frontend', 'src/rewrite', 'src/config', 'src/suppress', 'src/cli']) {
      for (const f of sources(dir)) {
        const text = readFileSync(f, 'utf8');
        for (const m of text.matchAll(/code: '([a-z]+(?:-[a-z]+)+|config)'/g)) found.add(m[1]!);
        for (const m of text.matchAll(/(?:failAt|errorAt)\([^;]*?'([a-z]+(?:-[a-z]+)+)'/g)) found.add(m[1]!);
      }
    }
    // Usage errors of the command line are never attached to a kernel line.
    for (const cli of ['bad-argument', 'usage', 'internal-error', 'no-tests', 'unwritable-output']) found.delete(cli);
    const known = knownCodes();
    expect([...found].filter((c) => !known.has(c)).sort()).toEqual([]);
    expect(known.has('missing-marker')).toBe(true);
    expect(BUILTIN_CODES.length).toBeGreaterThan(10);
  });
});
