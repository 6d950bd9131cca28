// Worker thread of `--jobs N`: runs FileTasks sent by the pool (src/cli/pool.ts) and posts results back.
import { parentPort, workerData } from 'node:worker_threads';
import { RuleSession } from '../passes/rule-session.js';
import { withPrebuiltPlans } from '../runner/prebuilt-plans.js';
import { type CacheSpec, ruleCacheOf } from '../runner/rule-cache.js';
import { type FileTask, runFileTask } from './file-task.js';
import { internalFailure } from './pool.js';

// The rule programs this worker has loaded, shared by the tasks it runs; its cache is the main
// thread's (the same directories, and with the first task the programs the main thread loaded).
const spec = (workerData as { cache?: CacheSpec } | null)?.cache;
const cache = spec ? ruleCacheOf(spec) : undefined;
const session = withPrebuiltPlans(new RuleSession(process.cwd(), cache), spec);

parentPort?.on('message', (m: { id: number; task: FileTask; compiled?: [string, string][] }) => {
  if (cache) for (const [name, entry] of m.compiled ?? []) cache.memory.set(name, entry);
  let result;
  try {
    result = runFileTask(m.task, session);
  } catch (e) {
    result = internalFailure(m.task.file, e);
  }
  parentPort?.postMessage({ id: m.id, result });
});
