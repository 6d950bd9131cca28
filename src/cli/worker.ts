// Worker thread of `--jobs N`: runs FileTasks sent by the pool (src/cli/pool.ts) and posts results back.
import { parentPort } from 'node:worker_threads';
import { runFileTask, type FileTask } from './file-task.js';
import { internalFailure } from './pool.js';
import { RuleSession } from '../passes/rule-session.js';

// The rule programs this worker has loaded, shared by the tasks it runs.
const session = new RuleSession(process.cwd());

parentPort?.on('message', (m: { id: number; task: FileTask }) => {
  let result;
  try {
    result = runFileTask(m.task, session);
  } catch (e) {
    result = internalFailure(m.task.file, e);
  }
  parentPort?.postMessage({ id: m.id, result });
});
