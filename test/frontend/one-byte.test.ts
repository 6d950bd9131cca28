// Text that is Latin-1 stays one byte a character through the frontend and the patcher: the
// layout's sentinels are below U+0100, so names sliced from the pre-tokenized text are not
// two-byte copies, and neither is a patched file's text (a 1M-statement orchestration kernel's
// 165 MB output was 314 MB of heap when it was).

import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { parseModuleIsolated } from '../../src/frontend/index.js';
import { emitChunk } from '../../src/frontend/layout.js';
import { scanLines } from '../../src/frontend/scan.js';
import { orchestrationText } from '../../src/gen/large.js';
import { applyPasses } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { SourceText } from '../../src/report/source.js';

/** True when V8 holds `s` one byte a character (its serialization tags it `"`, a two-byte string `c`, maybe after a padding byte). */
const oneByte = (s: string): boolean => serialize(s)[2] === 0x22;

/** Every string reachable from `x` through plain objects and arrays. */
function strings(x: unknown, out: string[] = [], seen = new Set<object>()): string[] {
  if (typeof x === 'string') out.push(x);
  else if (x !== null && typeof x === 'object' && !seen.has(x)) {
    seen.add(x);
    if (x instanceof Map) for (const v of x.values()) strings(v, out, seen);
    else for (const v of Object.values(x)) strings(v, out, seen);
  }
  return out;
}

const program = `import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        local_name_only_here = pl.add(x, x)
        for i in pl.range(4):
            inner_loop_name = pl.mul(local_name_only_here, x)
        return inner_loop_name
`;

describe('Latin-1 text stays one byte a character', () => {
  it('the check itself tells the two apart', () => {
    expect(oneByte('abc')).toBe(true);
    expect(oneByte('a\u0101')).toBe(false);
  });

  it('a pre-tokenized chunk of Latin-1 text is one-byte (its INDENT / DEDENT sentinels included)', () => {
    const source = new SourceText('p.py', program);
    const table = scanLines(program);
    const chunk = emitChunk(source, table, 0, table.count, 0);
    expect(chunk.out).toContain('\x01');
    expect(oneByte(chunk.out)).toBe(true);
  });

  it('every name and string of a parsed module is one-byte', () => {
    const m = parseModuleIsolated(program, 'p.py');
    const all = strings(m.programs);
    expect(all).toContain('local_name_only_here');
    expect(all).toContain('inner_loop_name');
    expect(all.filter((s) => !oneByte(s))).toEqual([]);
  });

  it("apply's patched text of a large streamed kernel is one-byte", () => {
    const out = applyPasses(orchestrationText(3_000), 'o.py', [passByName('expand-manual-phase-fence')!], {
      lazyBlocks: { minGroups: 64, chunkGroups: 16 },
    }).text;
    expect(out).toContain('phase_fence_barrier_');
    expect(oneByte(out)).toBe(true);
  });
});
