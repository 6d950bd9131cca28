/**
 * The abstract machine (src/verify/machine) classifies the seed contract's examples
 * (docs/contracts/insert-comm-fence.md) as the seed does: racy where PTOAS needs a marker the kernel
 * lacks, not racy once the markers are in place — including the variants the seed reports
 * PTOAS 0.50 accepting (notify-side markers removed) and rejecting (wait-side cacheinvalid
 * removed) for the ring all-reduce.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { applyPasses } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { formatRace, moduleRaces } from '../../src/verify/machine/index.js';
import { session } from '../session.js';

const ring = readFileSync('examples/ring_allreduce.py', 'utf8');
const races = (text: string): string[] => moduleRaces(parseModule(text, 'k.py')).map((r) => `${r.kind}@${r.line}`);

/** A one-kernel module with the generators' parameter set; `body` is indented 8 spaces. */
function kernel(...body: string[]): string {
  return [
    'import pypto.language as pl',
    'import pypto.language.distributed as pld',
    '',
    'N = 8',
    '',
    '@pl.program',
    'class K:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    '    def k(self, t: pl.Tile[[1, N], pl.FP32], win_a: pld.DistributedTensor[[1, N], pl.FP32],',
    '          win_b: pld.DistributedTensor[[4, 64], pl.FP32], x: pl.Tensor[[1, N], pl.FP32],',
    '          sig: pld.DistributedTensor[[1, N], pl.INT32], peer: pl.Scalar[pl.INT32], c: pl.Scalar[pl.BOOL]):',
    ...body.map((l) => `        ${l}`),
    '',
  ].join('\n');
}
const store = (w: string): string => `pl.store(t, [0, 0], ${w})`;
const inval = (w: string): string => `pl.system.cacheinvalid(${w}, [${w === 'win_a' ? '1, N' : '4, 64'}], [0, 0])`;
const fence = 'pl.system.fence()';
const notify = 'pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)';
const wait = 'pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)';
const read = 'v = pl.tensor.read(win_a, [0, 0])';
/** Line of the n-th body statement (kernel() puts the first on line 12). */
const L = (n: number): number => 11 + n;

describe('ring all-reduce (seed: verified on ptoas 0.50)', () => {
  it('without markers it is racy: the remote_store reaches the notify unfenced, and the loads after the wait are stale', () => {
    expect(races(ring)).toEqual(['consume@25', 'publish@27', 'consume@31', 'consume@32']);
  });

  it('with the markers InsertCommFence inserts it is not racy (the notify-side markers are absent: ptoas 0.50 accepted that)', () => {
    const after = applyPasses(ring, 'ring.py', [passByName('insert-comm-fence')!], { session }).text;
    expect(after).toContain('pl.system.fence()');
    expect(races(after)).toEqual([]);
  });

  it('with notify-side markers as well it is not racy', () => {
    const after = applyPasses(ring, 'ring.py', [passByName('insert-comm-fence')!], { session }).text;
    const both = after.replace(
      '            pld.system.notify(',
      '            pl.system.cacheinvalid()\n            pl.system.fence()\n            pld.system.notify(',
    );
    expect(both).not.toBe(after);
    expect(races(both)).toEqual([]);
  });

  it('with the wait-side cacheinvalid removed it is racy (ptoas 0.50 rejected that): the read of the window is stale', () => {
    const after = applyPasses(ring, 'ring.py', [passByName('insert-comm-fence')!], { session }).text;
    const lines = after.split('\n');
    const w = lines.findIndex((l) => l.includes('pld.system.wait('));
    expect(lines[w + 1]!.trim()).toBe('pl.system.cacheinvalid()');
    lines.splice(w + 1, 1);
    const rs = moduleRaces(parseModule(lines.join('\n'), 'ring.py'));
    expect(rs.map((r) => r.kind)).toContain('consume');
    const win = rs.find((r) => r.message.includes("'win'"))!;
    const text = formatRace(win);
    expect(text).toMatch(/rank 1: writes its window data/);
    expect(text).toMatch(/pld\.system\.wait\(.*returns/);
    expect(text).toMatch(/incoming = pl\.load\(win.*STALE/);
  });
});

describe("the seed's other examples", () => {
  it('store(win_a); store(win_b); notify is racy on both writes; with region cacheinvalid + fence after each it is not', () => {
    expect(races(kernel(store('win_a'), store('win_b'), notify))).toEqual([`publish@${L(1)}`, `publish@${L(2)}`]);
    expect(races(kernel(store('win_a'), inval('win_a'), fence, store('win_b'), inval('win_b'), fence, notify))).toEqual([]);
  });

  it('write and notify in separate loops: released inside the first loop is enough', () => {
    expect(
      races(
        kernel(
          'for i in pl.range(N):',
          `    ${store('win_a')}`,
          `    ${inval('win_a')}`,
          `    ${fence}`,
          'for p in pl.range(N):',
          `    ${notify}`,
        ),
      ),
    ).toEqual([]);
    expect(races(kernel('for i in pl.range(N):', `    ${store('win_a')}`, 'for p in pl.range(N):', `    ${notify}`))).toEqual([
      `publish@${L(2)}`,
    ]);
  });

  it('wait; read is racy; wait; cacheinvalid(); read is not; a region cacheinvalid is not enough', () => {
    expect(races(kernel(wait, read))).toEqual([`consume@${L(2)}`]);
    expect(races(kernel(wait, 'pl.system.cacheinvalid()', read))).toEqual([]);
    expect(races(kernel(wait, inval('win_a'), read))).toEqual([`consume@${L(3)}`]);
  });

  it('a pure barrier notify needs nothing; a pure wait-loop needs one invalidate after it', () => {
    expect(races(kernel(notify, wait))).toEqual([]);
    expect(races(kernel('for src in pl.range(N):', '    if src != peer:', `        ${wait}`, 'pl.system.cacheinvalid()', read))).toEqual(
      [],
    );
    expect(races(kernel('for src in pl.range(N):', '    if src != peer:', `        ${wait}`, read))).toEqual([`consume@${L(4)}`]);
  });

  it('the fence must come after the covering cacheinvalid; a region cacheinvalid of another tensor does not cover', () => {
    expect(races(kernel(store('win_a'), fence, inval('win_a'), notify))).toEqual([`publish@${L(1)}`]);
    expect(races(kernel(store('win_a'), inval('win_b'), fence, notify))).toEqual([`publish@${L(1)}`]);
    expect(races(kernel(store('win_a'), 'pl.system.cacheinvalid()', fence, notify))).toEqual([]);
  });

  it('remote writes need the fence only; opaque writes need a whole-GM cacheinvalid and a fence', () => {
    expect(races(kernel('pld.tile.remote_store(t, win_a, peer, [0, 0])', notify))).toEqual([`publish@${L(1)}`]);
    expect(races(kernel('pld.tile.remote_store(t, win_a, peer, [0, 0])', fence, notify))).toEqual([]);
    expect(races(kernel('self.k(t, win_a, win_b, x, sig, peer, c)', inval('win_a'), fence, notify))).toEqual([`publish@${L(1)}`]);
    expect(races(kernel('self.k(t, win_a, win_b, x, sig, peer, c)', 'pl.system.cacheinvalid()', fence, notify))).toEqual([]);
  });

  it('a write to a plain tensor is private; an unpublished window write at the end of the kernel is racy', () => {
    expect(races(kernel(store('x'), notify))).toEqual([]);
    expect(races(kernel(store('win_a')))).toEqual([`publish@${L(1)}`]);
  });

  it('a wait in one iteration makes a read at the top of the next iteration stale', () => {
    expect(races(kernel('for i in pl.range(N):', `    ${read}`, `    ${wait}`))).toEqual([`consume@${L(2)}`]);
  });

  it('Orchestration functions are not device kernels: the machine does not run them', () => {
    const orch = kernel(store('win_a')).replace('pl.FunctionType.InCore', 'pl.FunctionType.Orchestration');
    expect(races(orch)).toEqual([]);
  });
});
