// A run reserves arena memory up front only for a large text: a small file's run reserved a 16 MB
// chunk (an ArrayBuffer, external memory for V8) per file, which started a full garbage
// collection every few files of a many-file audit.
import { describe, expect, it, vi } from 'vitest';

const reserved = vi.hoisted(() => ({ sizes: [] as number[] }));
vi.mock('../../src/datalog/index.js', async (importOriginal) => {
  const datalog = await importOriginal<typeof import('../../src/datalog/index.js')>();
  class CountedArena extends datalog.Arena {
    constructor(reserve = 0) {
      super(reserve);
      reserved.sizes.push(this.reserved);
    }
  }
  return { ...datalog, Arena: CountedArena };
});

const { auditText } = await import('../../src/passes/pipeline.js');
const { PASSES } = await import('../../src/passes/registry.js');
const { orchestrationText } = await import('../../src/gen/large.js');

describe('arena reservation per run', () => {
  it('a small file reserves nothing up front', () => {
    // (20K characters: a kernel and comments, as PyPTO's larger examples.)
    const text = `${orchestrationText(4)}${'# padding padding padding padding\n'.repeat(600)}`;
    reserved.sizes = [];
    expect(auditText(text, 'small.py', PASSES).length).toBeGreaterThan(0);
    expect(reserved.sizes.length).toBeGreaterThan(0);
    expect(reserved.sizes[0]).toBe(0);
  });

  it('a large file reserves before it is parsed', () => {
    // (Large by its characters: a long comment after a small program.)
    const text = `${orchestrationText(4)}${'# padding padding padding padding\n'.repeat(10_000)}`;
    expect(text.length).toBeGreaterThan(256 * 1024);
    reserved.sizes = [];
    auditText(text, 'large.py', PASSES);
    expect(reserved.sizes[0]).toBeGreaterThan(0);
  });
});
