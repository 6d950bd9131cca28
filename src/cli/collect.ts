/**
 * A full garbage collection for the pipeline (RunOptions.collect): a large module's tree is
 * freed before its facts are evaluated, and evaluation allocates outside the JavaScript heap,
 * so V8 would otherwise keep the dead tree through it. Only the CLI touches V8's flags.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Below this much live-or-dead JavaScript heap a collection gives back too little to be worth its
 * time (measured at 100k statements: 128 MiB costs 8-15% more CPU than 256). Above 256: at 384 the
 * 326 MB heap (mostly the dead tree) at the start of a 1M-statement comm kernel's evaluation stayed.
 */
const MIN_HEAP_BYTES = 256 * 2 ** 20;

/**
 * A function that, when the JavaScript heap holds at least `minHeapBytes` (default 256 MiB), runs a full garbage
 * collection twice: the first frees the objects, the second gives their pages back to the
 * system (V8 releases freed pages one cycle later). Nothing is set up before it is needed.
 */
export function fullCollection(minHeapBytes = MIN_HEAP_BYTES): () => void {
  let gc: (() => void) | undefined;
  return () => {
    if (getHeapStatistics().used_heap_size < minHeapBytes) return;
    gc ??= exposedGc();
    gc();
    gc();
  };
}

/** V8's `gc` function: a context made after `--expose-gc` is set has it (the flag stays set for the process). */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
