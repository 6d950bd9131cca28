import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RuleSession } from '../passes/rule-session.js';
import { type FileResult, type FileTask, runFileTask } from './file-task.js';
import type { CliRuleCache } from './rule-cache.js';

/** A FileResult for an unexpected exception: one `internal-error` line, no stack trace. */
export function internalFailure(file: string, e: unknown): FileResult {
  const msg = e instanceof Error ? e.message : String(e);
  return {
    report: { diagnostics: [], sources: {} },
    fatal: { diagnostics: [{ severity: 'error', code: 'internal-error', path: file, message: `internal error: ${msg}` }], sources: {} },
  };
}

/** The compiled worker script (dist/cli/worker.js), also when running from the TypeScript sources. */
function workerScript(): string | undefined {
  for (const rel of ['./worker.js', '../../dist/cli/worker.js']) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * Runs the tasks on up to `jobs` worker threads (in this thread when jobs is 1, there is one
 * task, or no compiled worker exists) and returns the results in task order, whatever order
 * they finish in. `onDone` is called after each finished task.
 */
export async function runTasks(
  tasks: readonly FileTask[],
  jobs: number,
  session: RuleSession,
  onDone: (done: number) => void = () => {},
): Promise<FileResult[]> {
  const results: FileResult[] = new Array<FileResult>(tasks.length);
  const script = workerScript();
  const n = Math.min(jobs, tasks.length);
  if (n <= 1 || !script) {
    tasks.forEach((t, i) => {
      try {
        results[i] = runFileTask(t, session);
      } catch (e) {
        results[i] = internalFailure(t.file, e);
      }
      onDone(i + 1);
    });
    return results;
  }
  // The workers start (loading their code) while this thread runs the first task, which loads
  // (compiles, or reads from the cache) the rule programs the run needs: the workers are given
  // them with their first task, so no worker compiles the rules again (--jobs N, --no-cache too).
  const spec = (session.cache as CliRuleCache | undefined)?.spec;
  const workers = Array.from({ length: Math.min(n, tasks.length - 1) }, () => new Worker(script, { workerData: { cache: spec } }));
  try {
    results[0] = runFileTask(tasks[0]!, session);
  } catch (e) {
    results[0] = internalFailure(tasks[0]!.file, e);
  }
  const compiled = [...((session.cache as CliRuleCache | undefined)?.memory ?? [])];
  let next = 1;
  let done = 1;
  onDone(done);
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolveAll) => {
          let current = -1;
          let first = true;
          const give = (): void => {
            if (next >= tasks.length) {
              void w.terminate().then(() => resolveAll());
              return;
            }
            const id = next++;
            current = id;
            w.postMessage({ id, task: tasks[id], ...(first ? { compiled } : {}) });
            first = false;
          };
          w.on('message', (m: { id: number; result: FileResult }) => {
            results[m.id] = m.result;
            onDone(++done);
            give();
          });
          w.on('error', (e) => {
            // A crashed worker: report its tasks as internal errors and stop it.
            if (current >= 0 && !results[current]) results[current] = internalFailure(tasks[current]!.file, e);
            void w.terminate().then(() => resolveAll());
          });
          give();
        }),
    ),
  );
  // Tasks never handed out because workers crashed run here.
  tasks.forEach((t, i) => {
    if (!results[i]) results[i] = runFileTask(t, session);
  });
  return results;
}
