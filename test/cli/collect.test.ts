/**
 * The CLI's garbage collection (RunOptions.collect): it frees dead objects and gives their pages
 * back when the heap is past its threshold, and does nothing below it.
 */

import { getHeapStatistics } from 'node:v8';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { arrayBuffersAtLeast, fullCollection } from '../../src/cli/collect.js';

const heap = (): number => getHeapStatistics().used_heap_size;

describe('fullCollection', () => {
  it('leaves the process able to use a code cache made before it collected (V8 checks the flags)', () => {
    const source = `(function (x) { return [x, x * 2, String(x)]; })`;
    const cachedData = new Script(source, { filename: 'made.js' }).createCachedData();
    fullCollection(0)();
    // (Another file name: V8 compiles the text again, from the cache, not from its own memory of it.)
    const again = new Script(source, { filename: 'read.js', cachedData });
    expect(again.cachedDataRejected).toBe(false);
  });

  it('frees what is dead when the heap holds at least its threshold', () => {
    const collect = fullCollection(0);
    collect();
    const before = heap();
    let junk: { i: number; s: number[] }[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: [i] }));
    expect(junk.length).toBe(400_000);
    const full = heap();
    junk = null;
    collect();
    expect(full - before).toBeGreaterThan(16 * 2 ** 20);
    expect(heap() - before).toBeLessThan((full - before) / 4);
  });

  it('frees at the `extracted` moment from its lower threshold on, not while extracting', () => {
    const collect = fullCollection(Number.MAX_SAFE_INTEGER, 0);
    let junk: { i: number; s: number[] }[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: [i] }));
    expect(junk.length).toBe(400_000);
    const full = heap();
    junk = null;
    collect('extracting');
    expect(heap()).toBeGreaterThan(full - 8 * 2 ** 20);
    collect('extracted');
    expect(heap()).toBeLessThan(full - 16 * 2 ** 20);
  });

  it('frees at the `evaluated` moment by the ArrayBuffers held, not by the heap', () => {
    let junk: { i: number; s: number[] }[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: [i] }));
    expect(junk.length).toBe(400_000);
    const full = heap();
    junk = null;
    fullCollection(0, 0, Number.MAX_SAFE_INTEGER)('evaluated');
    expect(heap()).toBeGreaterThan(full - 8 * 2 ** 20);
    fullCollection(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 0)('evaluated');
    expect(heap()).toBeLessThan(full - 16 * 2 ** 20);
  });

  it('frees at the `released` moment once 64 MiB of ArrayBuffers are held (or the `evaluated` threshold, when lower)', () => {
    let junk: { i: number; s: number[] }[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: [i] }));
    expect(junk.length).toBe(400_000);
    const full = heap();
    junk = null;
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(64 * 2 ** 20);
    fullCollection(0, 0, Number.MAX_SAFE_INTEGER)('released');
    expect(heap()).toBeGreaterThan(full - 8 * 2 ** 20);
    let held: ArrayBuffer | null = new ArrayBuffer(80 * 2 ** 20);
    fullCollection(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)('released');
    expect(heap()).toBeLessThan(full - 16 * 2 ** 20);
    expect(held.byteLength).toBe(80 * 2 ** 20);
    held = null;
  });

  it("counts the heap's growth since it was made, not what the process already held", () => {
    let junk: { i: number; s: number[] }[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: [i] }));
    expect(junk.length).toBe(400_000);
    const full = heap();
    junk = null;
    // The dead objects predate the collector: a small analysis made no garbage worth two collections.
    const collect = fullCollection(8 * 2 ** 20, 8 * 2 ** 20);
    collect('extracted');
    expect(heap()).toBeGreaterThan(full - 8 * 2 ** 20);
  });

  it('does nothing below its threshold', () => {
    const collect = fullCollection(Number.MAX_SAFE_INTEGER);
    let junk: { i: number; s: number[] }[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: [i] }));
    expect(junk.length).toBe(400_000);
    const full = heap();
    junk = null;
    collect();
    // No collection ran: the dead objects are still counted (a scavenge may have taken a few).
    expect(heap()).toBeGreaterThan(full - 8 * 2 ** 20);
  });

  it("answers by the ArrayBuffers held, as memoryUsage() counts them (V8's external memory only rules out)", () => {
    const mib = 2 ** 20;
    let held: ArrayBuffer | null = new ArrayBuffer(80 * mib);
    new Uint8Array(held).fill(1, 0, mib);
    const ab = process.memoryUsage().arrayBuffers;
    expect(getHeapStatistics().external_memory).toBeGreaterThanOrEqual(ab);
    expect(arrayBuffersAtLeast(64 * mib)).toBe(true);
    expect(arrayBuffersAtLeast(ab - mib)).toBe(true);
    expect(arrayBuffersAtLeast(ab + 64 * mib)).toBe(false);
    // Above V8's external memory: no ArrayBuffers count that much.
    expect(arrayBuffersAtLeast(getHeapStatistics().external_memory + 64 * mib)).toBe(false);
    expect(held.byteLength).toBe(80 * mib);
    held = null;
  });
});
