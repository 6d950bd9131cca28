// explain takes the FILE:LINE:COL audit prints, and its legend covers the whole proof.

import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';

describe('explain takes the FILE:LINE:COL audit prints', () => {
  it('explains the line', async () => {
    const r = await run(['explain', 'examples/ring_allreduce.py:27:13']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('examples/ring_allreduce.py:27:');
  });
});

describe('explain legend covers the whole proof and only nodes', () => {
  it('lists the loops and statement the proof path rests on, not line numbers', async () => {
    const r = await run(['explain', '--as-written', 'examples/mesh_gather.py:29', '--pass', 'insert-comm-fence']);
    expect(r.out).toMatch(/^ {4}28 = 25:9 `for src in/m);
    expect(r.out).toMatch(/^ {4}29 = 28:9 `for src in/m);
    expect(r.out).toMatch(/^ {4}80 = 29:13 `v = pl.read/m);
    expect(r.out).not.toMatch(/^ {4}27 = /m);
  });
});
