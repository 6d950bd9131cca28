/**
 * A full garbage collection for the pipeline (RunOptions.collect): a large module's tree is
 * freed before its facts are evaluated, and evaluation allocates outside the JavaScript heap,
 * so V8 would otherwise keep the dead tree through it. Only the CLI touches V8's flags.
 */

import { memoryUsage } from 'node:process';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CollectMoment } from '../passes/analyze.js';

/**
 * Below this much heap growth a collection while a module's facts are extracted gives back too
 * little to be worth its time; much above it, a million-statement kernel's dead tree stays
 * resident through its evaluation (the measurements behind the value: docs/benchmarks.md,
 * "Collection thresholds").
 */
const MIN_HEAP_BYTES = 256 * 2 ** 20;

/**
 * The same once a module's facts are all extracted, right before evaluation: one collection per
 * analysis, whose garbage would otherwise stay resident through all of it. Low enough that it
 * always runs for a million-statement kernel (its peak depends on it), high enough that files of
 * a hundred thousand statements never pay for it (docs/benchmarks.md, "Collection thresholds").
 */
const MIN_HEAP_BYTES_EXTRACTED = 96 * 2 ** 20;

/**
 * At the `evaluated` moment the garbage is the evaluation's buffers (outside the heap): a
 * collection is worth it when the process holds this much in ArrayBuffers — more than a
 * medium file's arena reserves, less than a very large file's evaluation gives back.
 */
const MIN_ARRAY_BUFFER_BYTES_EVALUATED = 256 * 2 ** 20;

/**
 * At the `released` moment the arena's buffers have just been dropped (the result copied out):
 * a collection gives their written pages back when they hold this much, which would otherwise
 * stay resident through the second parse and the rewrite of `apply`.
 */
const MIN_ARRAY_BUFFER_BYTES_RELEASED = 64 * 2 ** 20;

/**
 * A function that runs a full garbage collection twice (the first frees the objects, the second
 * gives their pages back to the system: V8 releases freed pages one cycle later) when the
 * JavaScript heap has grown by at least `minHeapBytes` (default 256 MiB) since the function was
 * made or last collected — `minHeapBytesExtracted` (default 96 MiB) at the `extracted` moment
 * (AnalyzeOptions.collect). Growth, not size: in a process that already holds much (the language
 * server, a test run of hundreds of files), a small file's analysis must not pay two full
 * collections for garbage it did not make. At `evaluated`, when
 * ArrayBuffers hold at least `minArrayBufferBytesEvaluated` (default 256 MiB); at `released`, at
 * least 64 MiB (or that, when less). Nothing is set up
 * before it is needed.
 */
export function fullCollection(
  minHeapBytes = MIN_HEAP_BYTES,
  minHeapBytesExtracted = MIN_HEAP_BYTES_EXTRACTED,
  minArrayBufferBytesEvaluated = MIN_ARRAY_BUFFER_BYTES_EVALUATED,
): (moment?: CollectMoment) => void {
  let gc: (() => void) | undefined;
  // The heap's size when this function was made, then right after its last collection.
  let base = getHeapStatistics().used_heap_size;
  return (moment) => {
    if (moment === 'evaluated') {
      if (!arrayBuffersAtLeast(minArrayBufferBytesEvaluated)) return;
    } else if (moment === 'released') {
      if (!arrayBuffersAtLeast(Math.min(minArrayBufferBytesEvaluated, MIN_ARRAY_BUFFER_BYTES_RELEASED))) return;
    } else {
      const min = moment === 'extracted' ? Math.min(minHeapBytes, minHeapBytesExtracted) : minHeapBytes;
      if (getHeapStatistics().used_heap_size - base < min) return;
    }
    gc ??= exposedGc();
    gc();
    gc();
    base = getHeapStatistics().used_heap_size;
  };
}

/**
 * Whether the process holds at least `min` bytes in ArrayBuffers (`memoryUsage().arrayBuffers`).
 * V8's external memory, which includes them, is read first (cheap): below `min` it answers;
 * `memoryUsage()` (which also reads the resident set size from the system, hundreds of
 * microseconds a call in a large process: a many-file audit called it twice per file) only above.
 */
export function arrayBuffersAtLeast(min: number): boolean {
  if (getHeapStatistics().external_memory < min) return false;
  return memoryUsage().arrayBuffers >= min;
}

/**
 * V8's `gc` function: the process's own when it runs with `--expose-gc`, else that of a context
 * made while the flag is set, and the flag cleared again at once. V8 uses a code cache only under
 * the flags it was made with: left set, it would refuse every cache read after it (the prebuilt
 * join plans', loaded at the first plan a large file's evaluation makes).
 */
function exposedGc(): () => void {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as () => void;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
