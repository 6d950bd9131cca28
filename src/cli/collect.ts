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
 * Below this much live-or-dead JavaScript heap a collection while a module's facts are extracted
 * gives back too little to be worth its time (measured at 100k statements: 128 MiB costs 8-15%
 * more CPU than 256). Above 256: at 384 the 326 MB heap (mostly dead tree) at the start of a
 * 1M-statement comm kernel's evaluation stayed.
 */
const MIN_HEAP_BYTES = 256 * 2 ** 20;

/**
 * The same once a module's facts are all extracted, right before evaluation: one collection per
 * analysis, whose garbage would otherwise stay resident through all of it. Measured on a
 * 1M-statement comm kernel (streaming parse): the heap held 134-300 MB there, 75 MB of it live,
 * and apply's peak was 906 or 1,045 MiB depending on whether that collection ran; with 96 MiB it
 * always runs there (906-909 MiB in three runs), and 100k-statement runs, below it, pay nothing.
 */
const MIN_HEAP_BYTES_EXTRACTED = 96 * 2 ** 20;

/**
 * At the `evaluated` moment the garbage is the evaluation's buffers (outside the heap): a
 * collection is worth it when the process holds this much in ArrayBuffers (a 100k-statement
 * run's arena reserves ~200 MB; a 1M-statement comm audit's gave back ~300 MB there).
 */
const MIN_ARRAY_BUFFER_BYTES_EVALUATED = 256 * 2 ** 20;

/**
 * At the `released` moment the arena's buffers have just been dropped (the result copied out):
 * a collection gives their written pages back when they hold this much (the 1M-statement
 * orchestration apply kept 192 MB of them through the second parse and the rewrite: 1,012 MiB).
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
      if (memoryUsage().arrayBuffers < minArrayBufferBytesEvaluated) return;
    } else if (moment === 'released') {
      if (memoryUsage().arrayBuffers < Math.min(minArrayBufferBytesEvaluated, MIN_ARRAY_BUFFER_BYTES_RELEASED)) return;
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

/** V8's `gc` function: a context made after `--expose-gc` is set has it (the flag stays set for the process). */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
